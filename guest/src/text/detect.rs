//! Which legacy encoding a file that is not UTF-8 is in (SPEC R20): Firefox's
//! detector (`chardetng`) guesses from the bytes, and says whether the guess
//! clearly beat the others. A guess that leaves malformed sequences is never
//! confident. The encodings that decode the bytes cleanly are named beside it,
//! so the model can choose one with an `encoding` argument when the guess is
//! not confident (nothing is ever guessed silently).
//!
//! ```
//! use filetools_core::text::detect::detect;
//! let found = detect("Привет, как дела? Всё хорошо.\n".as_bytes(), true);
//! assert!(found.is_none()); // valid UTF-8
//! let cp1251 = b"\xcf\xf0\xe8\xe2\xe5\xf2, \xea\xe0\xea \xe4\xe5\xeb\xe0? \xc2\xf1\xb8 \xf5\xee\xf0\xee\xf8\xee.\n";
//! let found = detect(cp1251, true).unwrap();
//! assert_eq!(found.encoding.name(), "windows-1251");
//! ```

use crate::text::encoding::Encoding;
use crate::text::utf8;

/// Bytes of a file's start that detection looks at.
pub const DETECT_SAMPLE_BYTES: usize = 64 * 1024;
/// Most encodings named as plausible beside the guess.
pub const MAX_PLAUSIBLE: usize = 4;
/// Fewest non-ASCII characters a confident guess rests on: one odd byte in
/// an ASCII file says nothing about its encoding.
const MIN_EVIDENCE_CHARS: usize = 2;
/// Of the non-ASCII characters a confident guess decodes, the share in
/// percent that must be letters (accented, Cyrillic, kana, ideographs…).
const MIN_LETTER_PERCENT: usize = 80;

/// Encodings offered as alternatives, most used first.
const CANDIDATES: [&encoding_rs::Encoding; 9] = [
    encoding_rs::WINDOWS_1252,
    encoding_rs::WINDOWS_1251,
    encoding_rs::SHIFT_JIS,
    encoding_rs::GBK,
    encoding_rs::EUC_KR,
    encoding_rs::BIG5,
    encoding_rs::EUC_JP,
    encoding_rs::WINDOWS_1250,
    encoding_rs::ISO_8859_7,
];

/// A detected legacy encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The best guess.
    pub encoding: Encoding,
    /// Whether the guess clearly beat the other candidates.
    pub confident: bool,
    /// Other encodings that decode the bytes cleanly, at most
    /// [`MAX_PLAUSIBLE`].
    pub plausible: Vec<Encoding>,
}

/// The legacy encoding of `sample`, a file's first bytes (`whole` when they
/// are all of it); `None` when it starts with a BOM or is valid UTF-8 (a
/// sequence cut at the end of a partial sample does not count against it).
pub fn detect(sample: &[u8], whole: bool) -> Option<Detection> {
    let sample = &sample[..sample.len().min(DETECT_SAMPLE_BYTES)];
    let whole = whole && sample.len() < DETECT_SAMPLE_BYTES;
    if has_bom(sample) || is_utf8(sample, whole) || mostly_utf8(sample) {
        return None;
    }
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(sample, whole);
    let (guess, assessed) = detector.guess_assess(None, false);
    let clean = |encoding: &'static encoding_rs::Encoding| clean_text(encoding, sample, whole);
    let confident = assessed && clean(guess).is_some_and(|text| reads_as_words(&text));
    let encoding = Encoding::from_label(guess.name()).unwrap_or(Encoding::Legacy(guess));
    let plausible = CANDIDATES
        .iter()
        .filter(|&&candidate| candidate != guess && clean(candidate).is_some())
        .filter_map(|candidate| Encoding::from_label(candidate.name()))
        .take(MAX_PLAUSIBLE)
        .collect();
    Some(Detection {
        encoding,
        confident,
        plausible,
    })
}

/// Whether decoded `text` has enough non-ASCII characters, mostly letters,
/// for the guess that gave it to be trusted.
fn reads_as_words(text: &str) -> bool {
    let (mut others, mut letters) = (0usize, 0usize);
    for ch in text.chars().filter(|ch| !ch.is_ascii()) {
        others += 1;
        letters += usize::from(ch.is_alphabetic());
    }
    others >= MIN_EVIDENCE_CHARS && letters * 100 >= others * MIN_LETTER_PERCENT
}

/// Whether `bytes` start with a UTF-8 or UTF-16 byte-order mark.
pub(crate) fn has_bom(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xEF, 0xBB, 0xBF])
        || bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0xFE, 0xFF])
}

/// Whether `bytes` are UTF-8; when they are not the whole file, a sequence
/// cut off at their end still counts as UTF-8.
fn is_utf8(bytes: &[u8], whole: bool) -> bool {
    match utf8::as_str(bytes) {
        Ok(_) => true,
        Err(err) => !whole && err.error_len().is_none(),
    }
}

/// Whether `bytes` hold more well-formed non-ASCII UTF-8 characters than
/// invalid runs: UTF-8 with a few bad bytes, not a legacy encoding, whose
/// text would rarely form a valid multi-byte sequence by chance.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut valid, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid += chunk.valid().chars().filter(|ch| !ch.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    valid > invalid
}

/// `bytes` decoded in `encoding`, or `None` when a sequence is malformed;
/// a sequence cut at the end of a partial sample is not malformed.
fn clean_text(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
    whole: bool,
) -> Option<String> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let room = decoder.max_utf8_buffer_length_without_replacement(bytes.len())?;
    let mut text = String::with_capacity(room);
    let (result, _) = decoder.decode_to_string_without_replacement(bytes, &mut text, whole);
    (result == encoding_rs::DecoderResult::InputEmpty).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(label: &str, text: &str) -> Vec<u8> {
        Encoding::from_label(label).unwrap().encode(text).unwrap()
    }

    #[test]
    fn utf8_and_bom_files_are_not_detected() {
        assert_eq!(detect("plain ascii\n".as_bytes(), true), None);
        assert_eq!(detect("café\n".as_bytes(), true), None);
        assert_eq!(detect(b"\xEF\xBB\xBFcaf\xE9", true), None);
        // A sequence cut at the end of a partial sample is still UTF-8.
        assert_eq!(detect(&"café".as_bytes()[..4], false), None);
    }

    #[test]
    fn utf8_with_a_few_bad_bytes_stays_utf8() {
        let mut bytes = "café crème brûlée ".as_bytes().to_vec();
        bytes.extend_from_slice(b"\xFF ok\n");
        assert_eq!(detect(&bytes, true), None);
    }

    #[test]
    fn common_legacy_texts_are_detected() {
        let cases = [
            (
                "windows-1252",
                "Le café crème était très bon, déjà prêt à l'emploi.\n",
            ),
            (
                "windows-1251",
                "Привет, как дела? Всё хорошо, спасибо большое.\n",
            ),
            (
                "Shift_JIS",
                "日本語のテキストです。これはテストの文章です。\n",
            ),
            ("GBK", "这是一个中文文本文件，用于测试编码检测。\n"),
            (
                "EUC-KR",
                "이것은 한국어 텍스트 파일입니다. 인코딩을 시험합니다.\n",
            ),
        ];
        for (label, text) in cases {
            let found = detect(&encoded(label, text), true).unwrap();
            assert_eq!(found.encoding.name(), label, "{text}");
            assert!(found.confident, "{label}");
            assert!(!found.plausible.iter().any(|e| e.name() == label));
        }
    }

    #[test]
    fn one_odd_byte_is_only_a_guess() {
        let found = detect(b"a\xFFb\n", true).unwrap();
        assert!(!found.confident);
        let found = detect(b"caf\xe9 cr\xe8me\nline two\n", true).unwrap();
        assert_eq!(
            (found.encoding.name(), found.confident),
            ("windows-1252", true)
        );
    }

    #[test]
    fn plausible_encodings_decode_the_bytes_cleanly() {
        let found = detect(&encoded("Shift_JIS", "日本語のテキスト\n"), true).unwrap();
        for encoding in &found.plausible {
            let Encoding::Legacy(inner) = encoding else {
                panic!("{encoding:?}")
            };
            assert!(clean_text(inner, &encoded("Shift_JIS", "日本語のテキスト\n"), true).is_some());
        }
    }
}
