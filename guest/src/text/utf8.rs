//! UTF-8 validation of file bytes, a SIMD block at a time. Every text read
//! validates the bytes it shows; std's check takes a machine word a step,
//! which on wasm32 is 4 bytes, each step also paying the component's
//! deadline check at the loop's head. `simdutf8` takes 64 bytes a step on
//! every target (SSE/AVX natively, simd128 in wasm). Failures are rare and
//! are explained by std's check, which says where and why.

use std::str::Utf8Error;
use std::string::FromUtf8Error;

/// `bytes` as text, or std's account of why they are not UTF-8.
pub(crate) fn as_str(bytes: &[u8]) -> Result<&str, Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

/// `bytes` as text without a copy, or std's account of why they are not
/// UTF-8 (which hands the bytes back).
pub(crate) fn into_string(bytes: Vec<u8>) -> Result<String, FromUtf8Error> {
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: the check just above found `bytes` to be valid UTF-8.
        Ok(unsafe { String::from_utf8_unchecked(bytes) })
    } else {
        String::from_utf8(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_text_passes_and_invalid_bytes_are_placed_as_std_places_them() {
        let mut bytes = "na\u{ef}ve caf\u{e9} 日本語 ".repeat(40).into_bytes();
        assert_eq!(as_str(&bytes).map(str::len), Ok(bytes.len()));
        assert_eq!(
            into_string(bytes.clone()).map(|text| text.len()),
            Ok(bytes.len())
        );
        let bad = bytes.len() - 70;
        bytes[bad] = 0xFF;
        let err = as_str(&bytes).expect_err("a 0xFF byte");
        assert_eq!((err.valid_up_to(), err.error_len()), (bad, Some(1)));
        let err = into_string(bytes.clone()).expect_err("a 0xFF byte");
        assert_eq!(err.utf8_error().valid_up_to(), bad);
        assert_eq!(err.into_bytes(), bytes);
        // A sequence cut at the end is incomplete, not invalid.
        let cut = &"é".as_bytes()[..1];
        assert_eq!(as_str(cut).expect_err("cut").error_len(), None);
    }
}
