//! The text of one PDF page, from its content stream (SPEC R14): the text
//! operators are followed with the text and transformation matrices, so a
//! move to a new line starts a new line of output, a move along the same
//! line a new word, and a wide kerning gap in `TJ` a space. Glyph codes
//! become characters through each font's encoding or `ToUnicode` map.
//! Text inside form XObjects is followed a few levels deep.
//!
//! Every step is fallible and bounded: a stream is inflated only up to a
//! cap, its structure is checked for nesting before it is decoded, and a
//! page that cannot be read fails alone, with its reason.

use std::collections::BTreeMap;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Encoding, Object, ObjectId, Stream};

use super::scan::{self, MAX_NESTING, MAX_STREAM_BYTES, content_shape};

/// Form XObjects followed inside one another.
const MAX_FORM_DEPTH: usize = 4;
/// A `TJ` adjustment (thousandths of an em) at least this far back is a
/// word gap.
const TJ_SPACE: f32 = 250.0;
/// Characters of one page's text kept; the rest is dropped.
const MAX_PAGE_CHARS: usize = 1 << 20;
/// Operators one page's content (its forms included, each time one is
/// drawn) may hold before its text is not extracted: decoded, each costs
/// memory, and a form drawn a thousand times is followed a thousand times.
const MAX_PAGE_OPERATORS: usize = 250_000;

/// A 2-D affine transformation `[a b c d e f]`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f32; 6]);

impl Matrix {
    const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// `self` followed by `then` (the row-vector product `self × then`).
    fn then(self, then: Matrix) -> Matrix {
        let (m, n) = (self.0, then.0);
        Matrix([
            m[0] * n[0] + m[1] * n[2],
            m[0] * n[1] + m[1] * n[3],
            m[2] * n[0] + m[3] * n[2],
            m[2] * n[1] + m[3] * n[3],
            m[4] * n[0] + m[5] * n[2] + n[4],
            m[4] * n[1] + m[5] * n[3] + n[5],
        ])
    }

    fn translate(tx: f32, ty: f32) -> Matrix {
        Matrix([1.0, 0.0, 0.0, 1.0, tx, ty])
    }
}

/// The text of page `page` of `doc`.
pub(super) fn page_text(doc: &Document, page: ObjectId) -> Result<String, String> {
    let resources = page_resources(doc, page);
    let content = page_content(doc, page)?;
    let mut text = Text::default();
    run(doc, &content, &resources, Matrix::IDENTITY, 0, &mut text)?;
    Ok(text.out)
}

/// The page's resource dictionaries, nearest first (its own, then those it
/// inherits).
fn page_resources(doc: &Document, page: ObjectId) -> Vec<&Dictionary> {
    let Ok((own, inherited)) = doc.get_page_resources(page) else {
        return Vec::new();
    };
    own.into_iter()
        .chain(
            inherited
                .into_iter()
                .filter_map(|id| doc.get_dictionary(id).ok()),
        )
        .collect()
}

/// The page's content streams, inflated and joined.
fn page_content(doc: &Document, page: ObjectId) -> Result<Vec<u8>, String> {
    let mut content = Vec::new();
    for id in doc.get_page_contents(page) {
        let stream = doc
            .get_object(id)
            .and_then(Object::as_stream)
            .map_err(|e| format!("its content stream is missing ({e})"))?;
        content.extend_from_slice(&inflate(stream)?);
        content.push(b'\n');
    }
    Ok(content)
}

/// `stream`'s data with its filters undone, each output capped.
fn inflate(stream: &Stream) -> Result<Vec<u8>, String> {
    let filters: Vec<Vec<u8>> = match stream.dict.get(b"Filter") {
        Ok(Object::Name(name)) => vec![name.clone()],
        Ok(Object::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_name().ok().map(<[u8]>::to_vec))
            .collect(),
        _ => Vec::new(),
    };
    let mut data = stream.content.clone();
    for filter in filters {
        data = match filter.as_slice() {
            b"FlateDecode" | b"Fl" => flate(&data)?,
            b"LZWDecode" | b"LZW" => lzw(&data)?,
            b"ASCIIHexDecode" | b"AHx" => ascii_hex(&data),
            other => {
                return Err(format!(
                    "its content uses the {} filter, which is not read",
                    String::from_utf8_lossy(other)
                ));
            }
        };
    }
    Ok(data)
}

fn cap_error() -> String {
    format!("its content inflates past {} MiB", MAX_STREAM_BYTES >> 20)
}

/// A damaged stream gives what it gave before the damage, as readers of
/// PDFs do.
fn flate(data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    scan::inflate(data, |piece| out.extend_from_slice(piece)).map_err(|_| cap_error())?;
    Ok(out)
}

fn lzw(data: &[u8]) -> Result<Vec<u8>, String> {
    let mut decoder = weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut input = data;
    loop {
        let result = decoder.decode_bytes(input, &mut buf);
        out.extend_from_slice(&buf[..result.consumed_out]);
        if out.len() as u64 > MAX_STREAM_BYTES {
            return Err(cap_error());
        }
        input = &input[result.consumed_in..];
        match result.status {
            Ok(weezl::LzwStatus::Ok) if result.consumed_in > 0 || result.consumed_out > 0 => {}
            _ => return Ok(out),
        }
    }
}

fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = data
        .iter()
        .take_while(|&&c| c != b'>')
        .filter_map(|&c| {
            char::from(c)
                .to_digit(16)
                .and_then(|d| u8::try_from(d).ok())
        })
        .collect();
    digits
        .chunks(2)
        .map(|pair| pair[0] << 4 | pair.get(1).copied().unwrap_or(0))
        .collect()
}

/// Text as it is assembled.
#[derive(Debug, Default)]
struct Text {
    out: String,
    /// Height of the last text shown, on the page.
    last_y: Option<f32>,
    /// Whether the text position changed since the last text shown.
    moved: bool,
    /// Operators met so far, forms included.
    operations: usize,
}

impl Text {
    /// Adds `shown`, drawn at page height `y` with font size `size`.
    fn show(&mut self, shown: &str, y: f32, size: f32) {
        if shown.is_empty() || self.out.len() > MAX_PAGE_CHARS {
            return;
        }
        let line = size.abs().max(1.0);
        match self.last_y {
            Some(last) if (last - y).abs() > line * 0.5 => {
                self.out.push('\n');
                if (last - y).abs() > line * 2.5 {
                    self.out.push('\n');
                }
            }
            Some(_) if self.moved && !self.out.ends_with([' ', '\n']) => self.out.push(' '),
            _ => {}
        }
        self.out
            .extend(shown.chars().map(|c| if c.is_control() { ' ' } else { c }));
        self.last_y = Some(y);
        self.moved = false;
    }

    /// A gap inside `TJ`.
    fn gap(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
            self.out.push(' ');
        }
    }
}

/// The state of the text operators within one content stream.
struct State<'d> {
    ctm: Matrix,
    saved: Vec<Matrix>,
    tm: Matrix,
    tlm: Matrix,
    leading: f32,
    size: f32,
    encoding: Option<&'d Encoding<'d>>,
}

/// Follows the operators of `content` with `resources`.
fn run(
    doc: &Document,
    content: &[u8],
    resources: &[&Dictionary],
    ctm: Matrix,
    depth: usize,
    text: &mut Text,
) -> Result<(), String> {
    let (deep, operators) = content_shape(content);
    if deep > MAX_NESTING {
        return Err(format!("its content nests {deep} levels deep"));
    }
    text.operations += operators;
    if text.operations > MAX_PAGE_OPERATORS {
        return Err(format!(
            "its content holds over {MAX_PAGE_OPERATORS} operators, more than a page is read for"
        ));
    }
    let operations = Content::decode(content)
        .map_err(|e| format!("its content cannot be parsed ({e})"))?
        .operations;
    let encodings = encodings(doc, resources);
    let mut state = State {
        ctm,
        saved: Vec::new(),
        tm: Matrix::IDENTITY,
        tlm: Matrix::IDENTITY,
        leading: 0.0,
        size: 12.0,
        encoding: None,
    };
    for op in &operations {
        let args = &op.operands;
        let number = |i: usize| args.get(i).and_then(|o| o.as_float().ok()).unwrap_or(0.0);
        match op.operator.as_str() {
            "q" => state.saved.push(state.ctm),
            "Q" => state.ctm = state.saved.pop().unwrap_or(ctm),
            "cm" => state.ctm = matrix(args).then(state.ctm),
            "BT" => {
                state.tm = Matrix::IDENTITY;
                state.tlm = Matrix::IDENTITY;
            }
            "Tf" => {
                state.encoding = args
                    .first()
                    .and_then(|o| o.as_name().ok())
                    .and_then(|name| encodings.get(name));
                state.size = number(1);
            }
            "TL" => state.leading = number(0),
            "Td" | "TD" => {
                if op.operator == "TD" {
                    state.leading = -number(1);
                }
                state.tlm = Matrix::translate(number(0), number(1)).then(state.tlm);
                state.tm = state.tlm;
                text.moved = true;
            }
            "Tm" => {
                state.tlm = matrix(args);
                state.tm = state.tlm;
                text.moved = true;
            }
            "T*" => next_line(&mut state, text),
            "Tj" => show(&state, args.first(), text),
            "'" => {
                next_line(&mut state, text);
                show(&state, args.first(), text);
            }
            "\"" => {
                next_line(&mut state, text);
                show(&state, args.get(2), text);
            }
            "TJ" => {
                for item in args
                    .first()
                    .and_then(|o| o.as_array().ok())
                    .into_iter()
                    .flatten()
                {
                    match item {
                        Object::String(..) => show(&state, Some(item), text),
                        other if other.as_float().is_ok_and(|n| n <= -TJ_SPACE) => text.gap(),
                        _ => {}
                    }
                }
            }
            "Do" if depth < MAX_FORM_DEPTH => {
                if let Some(name) = args.first().and_then(|o| o.as_name().ok()) {
                    form(doc, name, resources, state.ctm, depth, text)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn next_line(state: &mut State<'_>, text: &mut Text) {
    state.tlm = Matrix::translate(0.0, -state.leading).then(state.tlm);
    state.tm = state.tlm;
    text.moved = true;
}

fn show(state: &State<'_>, operand: Option<&Object>, text: &mut Text) {
    let Some(Object::String(bytes, _)) = operand else {
        return;
    };
    let shown = match state.encoding {
        Some(encoding) => Document::decode_text(encoding, bytes)
            .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned()),
        None => bytes
            .iter()
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    char::from(b)
                } else {
                    ' '
                }
            })
            .collect(),
    };
    let at = state.tm.then(state.ctm);
    let size = state.size * at.0[3].abs().max(at.0[0].abs()).max(f32::EPSILON);
    text.show(&shown, at.0[5], size);
}

fn matrix(args: &[Object]) -> Matrix {
    let mut m = [0.0f32; 6];
    for (slot, arg) in m.iter_mut().zip(args) {
        *slot = arg.as_float().unwrap_or(0.0);
    }
    if args.len() == 6 {
        Matrix(m)
    } else {
        Matrix::IDENTITY
    }
}

/// The encoding of each font named in `resources`, nearest first.
fn encodings<'d>(
    doc: &'d Document,
    resources: &[&'d Dictionary],
) -> BTreeMap<Vec<u8>, Encoding<'d>> {
    let mut found = BTreeMap::new();
    for dict in resources {
        let Some(fonts) = resolve(doc, dict.get(b"Font").ok()).and_then(|o| o.as_dict().ok())
        else {
            continue;
        };
        for (name, font) in fonts {
            if found.contains_key(name) {
                continue;
            }
            if let Some(encoding) = resolve(doc, Some(font))
                .and_then(|o| o.as_dict().ok())
                .and_then(|font| font.get_font_encoding(doc).ok())
            {
                found.insert(name.clone(), encoding);
            }
        }
    }
    found
}

/// `object` with a reference followed.
fn resolve<'d>(doc: &'d Document, object: Option<&'d Object>) -> Option<&'d Object> {
    match object? {
        Object::Reference(id) => doc.get_object(*id).ok(),
        other => Some(other),
    }
}

/// Follows the form XObject `name` of `resources`.
fn form(
    doc: &Document,
    name: &[u8],
    resources: &[&Dictionary],
    ctm: Matrix,
    depth: usize,
    text: &mut Text,
) -> Result<(), String> {
    let Some(stream) = resources.iter().find_map(|dict| {
        let objects = resolve(doc, dict.get(b"XObject").ok())?.as_dict().ok()?;
        resolve(doc, objects.get(name).ok())?.as_stream().ok()
    }) else {
        return Ok(());
    };
    if stream.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Form") {
        return Ok(());
    }
    let mut inner: Vec<&Dictionary> = resolve(doc, stream.dict.get(b"Resources").ok())
        .and_then(|o| o.as_dict().ok())
        .into_iter()
        .collect();
    inner.extend_from_slice(resources);
    let placed = stream
        .dict
        .get(b"Matrix")
        .and_then(Object::as_array)
        .map_or(Matrix::IDENTITY, |m| matrix(m))
        .then(ctm);
    run(doc, &inflate(stream)?, &inner, placed, depth + 1, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_compose_in_order() {
        let m = Matrix::translate(10.0, 20.0).then(Matrix([2.0, 0.0, 0.0, 2.0, 1.0, 1.0]));
        assert_eq!(m, Matrix([2.0, 0.0, 0.0, 2.0, 21.0, 41.0]));
    }

    #[test]
    fn lines_words_and_gaps_are_laid_out() {
        let mut text = Text::default();
        text.show("Hello", 700.0, 12.0);
        text.moved = true;
        text.show("world", 700.0, 12.0);
        text.show("again", 684.0, 12.0);
        text.show("far below", 600.0, 12.0);
        text.gap();
        text.show("x", 600.0, 12.0);
        assert_eq!(text.out, "Hello world\nagain\n\nfar below x");
    }

    #[test]
    fn capped_inflation_is_an_error_and_damage_gives_what_it_can() {
        let bomb = miniz_oxide::deflate::compress_to_vec_zlib(
            &vec![0u8; (MAX_STREAM_BYTES + 1) as usize],
            6,
        );
        assert!(flate(&bomb).is_err());
        let mut cut = miniz_oxide::deflate::compress_to_vec_zlib(b"BT (hi) Tj ET", 6);
        cut.truncate(cut.len() - 4);
        assert_eq!(flate(&cut).unwrap(), b"BT (hi) Tj ET");
        assert_eq!(ascii_hex(b"48 69>"), b"Hi");
    }
}
