//! Hostile files, made at test time: files that lie about their size,
//! expand without end, nest without end, or are valid files with random
//! bytes flipped. Every class is one way a file once cost a session its
//! memory; [`corpus`] makes a bounded, seeded set of each.

use std::fmt::{self, Write as _};

use anyhow::Result;
use serde_json::json;

use crate::images::ImageSpec;
use crate::pdfs::{PdfSpec, document};
use crate::reliability::Rng;

/// A kind of hostile file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// A tiny image whose header claims a huge size.
    ImageHeader,
    /// A PNG that inflates to tens of megapixels.
    ImageBomb,
    /// Real images as large as the decode budget allows: they must be shown.
    ImageLarge,
    /// A valid PNG, JPEG, GIF or WebP with bytes flipped.
    ImageFlip,
    /// A valid PDF with one byte changed.
    PdfFlip,
    /// A PDF with a broken structure: no page size, a font without a
    /// subtype, nesting thousands deep, a content stream that inflates
    /// without end.
    PdfStructure,
    /// A PDF of 20,000 pages.
    PdfHuge,
    /// Megabytes of garbage tokens in a source file.
    CodeGarbage,
    /// A valid notebook with bytes flipped.
    NotebookFlip,
    /// YAML whose aliases or nesting stand for billions of nodes, then
    /// edited (the syntax check parses it).
    YamlBomb,
    /// Notebooks with millions of numbers in an output or 100,000 cells,
    /// then edited cell by cell.
    NotebookHuge,
    /// A PDF whose content repeats one operator 700,000 times.
    PdfOperators,
    /// JSON and notebooks holding a key twice.
    DuplicateKeys,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 13] = [
        Class::ImageHeader,
        Class::ImageBomb,
        Class::ImageLarge,
        Class::ImageFlip,
        Class::PdfFlip,
        Class::PdfStructure,
        Class::PdfHuge,
        Class::CodeGarbage,
        Class::NotebookFlip,
        Class::YamlBomb,
        Class::NotebookHuge,
        Class::PdfOperators,
        Class::DuplicateKeys,
    ];
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Class::ImageHeader => "images whose header claims a huge size",
            Class::ImageBomb => "PNG decompression bombs",
            Class::ImageLarge => "real images at the decode budget",
            Class::ImageFlip => "images with flipped bytes",
            Class::PdfFlip => "PDFs with one byte changed",
            Class::PdfStructure => "PDFs with a broken structure",
            Class::PdfHuge => "a PDF of 20,000 pages",
            Class::CodeGarbage => "source files of garbage tokens",
            Class::NotebookFlip => "notebooks with flipped bytes",
            Class::YamlBomb => "YAML alias bombs and deep nesting, edited",
            Class::NotebookHuge => "notebooks of millions of numbers or 100,000 cells, edited",
            Class::PdfOperators => "a PDF repeating one operator 700,000 times",
            Class::DuplicateKeys => "JSON and notebooks with a repeated key, edited",
        })
    }
}

/// One hostile file and the read that meets it.
#[derive(Debug, Clone)]
pub struct Hostile {
    /// Its class.
    pub class: Class,
    /// Its file name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The `pages` argument of the read, for PDFs.
    pub pages: Option<String>,
    /// A change of the file made after the read: the tool and its
    /// arguments.
    pub then: Option<(String, serde_json::Value)>,
}

/// How many files of the classes made by flipping bytes.
#[derive(Debug, Clone, Copy)]
pub struct Counts {
    /// Image and notebook flips, each.
    pub flips: u64,
    /// PDF single-byte changes.
    pub pdf_flips: u64,
    /// Bytes of each garbage source file.
    pub garbage_bytes: usize,
    /// Whether to make the real images of 12 to 24 megapixels (seconds of
    /// encoding).
    pub large_images: bool,
}

/// The corpus: every class, `counts` of the flipped ones.
pub fn corpus(rng: &mut Rng, counts: Counts) -> Result<Vec<Hostile>> {
    let mut files = Vec::new();
    images(&mut files)?;
    if counts.large_images {
        large_images(&mut files)?;
    }
    flipped_images(&mut files, rng, counts.flips)?;
    pdfs(&mut files, rng, counts.pdf_flips);
    garbage(&mut files, rng, counts.garbage_bytes);
    notebooks(&mut files, rng, counts.flips);
    parser_bombs(&mut files);
    Ok(files)
}

fn push(files: &mut Vec<Hostile>, class: Class, name: String, bytes: Vec<u8>) {
    files.push(Hostile {
        class,
        name,
        bytes,
        pages: None,
        then: None,
    });
}

/// Sizes a lying header claims: from a large photo to the decoders' limits.
const CLAIMED: [(u32, u32); 4] = [
    (5000, 5000),
    (7000, 7000),
    (10_000, 10_000),
    (16_383, 16_383),
];

fn images(files: &mut Vec<Hostile>) -> Result<()> {
    for (w, h) in CLAIMED {
        let (w16, h16) = (w as u16, h as u16);
        // GIF: screen and frame of w×h, one pixel of LZW data.
        let mut gif = b"GIF89a".to_vec();
        gif.extend_from_slice(&w16.to_le_bytes());
        gif.extend_from_slice(&h16.to_le_bytes());
        gif.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
        gif.push(0x2C);
        gif.extend_from_slice(&[0, 0, 0, 0]);
        gif.extend_from_slice(&w16.to_le_bytes());
        gif.extend_from_slice(&h16.to_le_bytes());
        gif.extend_from_slice(&[0, 2, 2, 0x44, 0x01, 0, 0x3B]);
        push(
            files,
            Class::ImageHeader,
            format!("claims-{w}x{h}.gif"),
            gif,
        );
        // WebP lossless: the 14-bit sizes, then a few bits of image.
        let bits = (w - 1) | ((h - 1) << 14);
        let mut vp8l = vec![0x2F];
        vp8l.extend_from_slice(&bits.to_le_bytes());
        vp8l.extend_from_slice(&[0, 0, 0, 0]);
        let mut webp = b"RIFF".to_vec();
        webp.extend_from_slice(&(4 + 8 + vp8l.len() as u32).to_le_bytes());
        webp.extend_from_slice(b"WEBPVP8L");
        webp.extend_from_slice(&(vp8l.len() as u32).to_le_bytes());
        webp.extend_from_slice(&vp8l);
        push(
            files,
            Class::ImageHeader,
            format!("claims-{w}x{h}.webp"),
            webp,
        );
        // JPEG: a valid 8×8 image whose frame header is changed to w×h.
        let mut jpeg = ImageSpec {
            format: "jpeg".into(),
            width: 8,
            height: 8,
            orientation: None,
        }
        .draw()?;
        if let Some(at) = jpeg.windows(2).position(|m| m == [0xFF, 0xC0]) {
            jpeg[at + 5..at + 7].copy_from_slice(&h16.to_be_bytes());
            jpeg[at + 7..at + 9].copy_from_slice(&w16.to_be_bytes());
        }
        push(
            files,
            Class::ImageHeader,
            format!("claims-{w}x{h}.jpg"),
            jpeg,
        );
        // PNG: a 1×1 image whose IHDR says w×h (CRC left wrong, as a lie would).
        let mut png = ImageSpec {
            format: "png".into(),
            width: 1,
            height: 1,
            orientation: None,
        }
        .draw()?;
        png[16..20].copy_from_slice(&w.to_be_bytes());
        png[20..24].copy_from_slice(&h.to_be_bytes());
        push(
            files,
            Class::ImageHeader,
            format!("claims-{w}x{h}.png"),
            png,
        );
    }
    for side in [7000u32, 10_000] {
        // A grey PNG of nothing but zeros: megabytes of pixels in kilobytes.
        let mut data = Vec::new();
        let mut encoder = png::Encoder::new(&mut data, side, side);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&vec![0; (side * side) as usize])?;
        writer.finish()?;
        push(
            files,
            Class::ImageBomb,
            format!("bomb-{side}x{side}.png"),
            data,
        );
    }
    Ok(())
}

/// Real images just inside the default decode budget (24 MP; 12 MP where
/// decoding needs two buffers).
fn large_images(files: &mut Vec<Hostile>) -> Result<()> {
    let spec = |format: &str, width, height, orientation| ImageSpec {
        format: format.into(),
        width,
        height,
        orientation,
    };
    push(
        files,
        Class::ImageLarge,
        "photo-6000x4000.png".into(),
        spec("png", 6000, 4000, None).draw()?,
    );
    push(
        files,
        Class::ImageLarge,
        "photo-6000x4000.jpg".into(),
        spec("jpeg", 6000, 4000, None).draw()?,
    );
    push(
        files,
        Class::ImageLarge,
        "turned-4000x3000.jpg".into(),
        spec("jpeg", 4000, 3000, Some(6)).draw()?,
    );
    let pixels: Vec<u8> = (0..4000u32 * 3000)
        .flat_map(|i| [(i % 256) as u8, (i / 4000 % 256) as u8, 90])
        .collect();
    let mut webp = Vec::new();
    image_webp::WebPEncoder::new(&mut webp).encode(
        &pixels,
        4000,
        3000,
        image_webp::ColorType::Rgb8,
    )?;
    push(
        files,
        Class::ImageLarge,
        "photo-4000x3000.webp".into(),
        webp,
    );
    Ok(())
}

/// `bytes` with `flips` random bytes replaced, past the first `keep`.
fn flip(rng: &mut Rng, bytes: &[u8], flips: u64, keep: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let span = (out.len() - keep) as u64;
    for _ in 0..flips {
        let at = keep + rng.below(span) as usize;
        out[at] = (rng.next_u64() >> 11) as u8;
    }
    out
}

fn flipped_images(files: &mut Vec<Hostile>, rng: &mut Rng, count: u64) -> Result<()> {
    let spec = |format: &str| ImageSpec {
        format: format.into(),
        width: 96,
        height: 64,
        orientation: Some(6),
    };
    let png = spec("png").draw()?;
    let jpeg = spec("jpeg").draw()?;
    let mut gif = Vec::new();
    {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
        let mut encoder = gif::Encoder::new(&mut gif, 96, 64, &palette)?;
        let frame = gif::Frame {
            width: 96,
            height: 64,
            buffer: std::borrow::Cow::Owned((0..96u32 * 64).map(|i| (i % 251) as u8).collect()),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame)?;
    }
    let mut webp = Vec::new();
    let pixels: Vec<u8> = (0..96u32 * 64)
        .flat_map(|i| [(i % 256) as u8, 40, 90])
        .collect();
    image_webp::WebPEncoder::new(&mut webp).encode(&pixels, 96, 64, image_webp::ColorType::Rgb8)?;
    for (ext, valid) in [
        ("png", &png),
        ("jpg", &jpeg),
        ("gif", &gif),
        ("webp", &webp),
    ] {
        for n in 0..count {
            let flips = rng.between(1, 4);
            let bytes = flip(rng, valid, flips, 12);
            push(files, Class::ImageFlip, format!("flipped-{n}.{ext}"), bytes);
        }
    }
    Ok(())
}

fn pdfs(files: &mut Vec<Hostile>, rng: &mut Rng, count: u64) {
    flipped_pdfs(files, rng, count);
    broken_pdfs(files);
    let huge = PdfSpec {
        pages: Vec::new(),
        count: 20_000,
        text: "Page {n} of a long report.".into(),
    }
    .write();
    files.push(Hostile {
        class: Class::PdfHuge,
        name: "pages-20000.pdf".into(),
        bytes: huge,
        pages: Some("19990-20000".into()),
        then: None,
    });
}

fn flipped_pdfs(files: &mut Vec<Hostile>, rng: &mut Rng, count: u64) {
    let valid = PdfSpec {
        pages: vec![
            "The first page.\nIt has two lines.".into(),
            String::new(),
            "The third (and last) page.".into(),
        ],
        count: 0,
        text: String::new(),
    }
    .write();
    for n in 0..count {
        let mut bytes = valid.clone();
        let at = 9 + rng.below(bytes.len() as u64 - 9) as usize;
        bytes[at] = (rng.next_u64() >> 11) as u8;
        files.push(Hostile {
            class: Class::PdfFlip,
            name: format!("changed-{n}.pdf"),
            bytes,
            pages: None,
            then: None,
        });
    }
}

/// A one-page PDF: the page's extra keys and resources, its content stream
/// (dictionary keys and data) and its font.
fn one_page(page: &str, resources: &str, stream: (&str, &[u8]), font: &str) -> Vec<u8> {
    let (keys, data) = stream;
    let mut content = format!("<< /Length {} {keys} >>\nstream\n", data.len()).into_bytes();
    content.extend_from_slice(data);
    content.extend_from_slice(b"\nendstream");
    document(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!("<< /Type /Page /Parent 2 0 R {page} /Resources << /Font << /F1 5 0 R >> {resources} >> /Contents 4 0 R >>").into_bytes(),
        content,
        font.as_bytes().to_vec(),
    ])
}

fn broken_pdfs(files: &mut Vec<Hostile>) {
    let media = "/MediaBox [0 0 612 792]";
    let hello: &[u8] = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET";
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    let deep_dict = format!("/Deep {}{}", "<< /A ".repeat(1000), ">> ".repeat(1000));
    let deep_array = format!("/Deep {}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_content = format!(
        "BT /F1 12 Tf {}(x){} TJ ET",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    // A content stream that inflates to 256 MiB of spaces.
    let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&vec![b' '; 256 << 20], 6);
    let broken = [
        ("no-mediabox", one_page("", "", ("", hello), font)),
        (
            "font-without-subtype",
            one_page(
                media,
                "",
                ("", hello),
                "<< /Type /Font /BaseFont /Helvetica >>",
            ),
        ),
        (
            "dict-nested-1000",
            one_page(media, &deep_dict, ("", hello), font),
        ),
        (
            "array-nested-10000",
            one_page(media, &deep_array, ("", hello), font),
        ),
        (
            "content-nested-10000",
            one_page(media, "", ("", deep_content.as_bytes()), font),
        ),
        (
            "inflates-256-mib",
            one_page(media, "", ("/Filter /FlateDecode", &bomb), font),
        ),
    ];
    for (name, bytes) in broken {
        files.push(Hostile {
            class: Class::PdfStructure,
            name: format!("{name}.pdf"),
            bytes,
            pages: None,
            then: None,
        });
    }
}

fn garbage(files: &mut Vec<Hostile>, rng: &mut Rng, bytes: usize) {
    const TOKENS: [&str; 24] = [
        "{", "}", "(", ")", "[", "]", ";", ",", ".", "=", "=>", "<", ">", "'", "\"", "`", "/*",
        "def", "class", "function", "if", "x1", "42", ":",
    ];
    for ext in ["js", "ts", "tsx", "py"] {
        let mut text = String::with_capacity(bytes + 64);
        while text.len() < bytes {
            text.push_str(TOKENS[rng.below(TOKENS.len() as u64) as usize]);
            text.push(if rng.below(12) == 0 { '\n' } else { ' ' });
        }
        push(
            files,
            Class::CodeGarbage,
            format!("garbage.{ext}"),
            text.into_bytes(),
        );
    }
}

fn notebooks(files: &mut Vec<Hostile>, rng: &mut Rng, count: u64) {
    let png = ImageSpec {
        format: "png".into(),
        width: 16,
        height: 16,
        orientation: None,
    }
    .draw()
    .unwrap_or_default();
    let b64 = filetools_core::base64_encode(&png);
    let notebook = json!({
        "cells": [
            {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# Title\n", "text"]},
            {"cell_type": "code", "id": "c", "execution_count": 1, "metadata": {}, "source": ["print(1)"],
             "outputs": [
                {"output_type": "stream", "name": "stdout", "text": ["1\n"]},
                {"output_type": "display_data", "metadata": {}, "data": {"image/png": b64, "text/plain": ["<Figure>"]}}
             ]}
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5
    })
    .to_string()
    .into_bytes();
    for n in 0..count {
        let flips = rng.between(1, 4);
        let bytes = flip(rng, &notebook, flips, 1);
        push(
            files,
            Class::NotebookFlip,
            format!("flipped-{n}.ipynb"),
            bytes,
        );
    }
}

/// An edit of `file` from `old` to `new`, after its read.
fn edit(file: &str, old: &str, new: &str) -> (String, serde_json::Value) {
    (
        "edit".to_owned(),
        json!({"file_path": file, "old_string": old, "new_string": new}),
    )
}

/// A notebook of `cells` code cells, the first with `output` as its one
/// output.
fn notebook_of(cells: usize, output: &serde_json::Value) -> Vec<u8> {
    let mut all = Vec::with_capacity(cells);
    for n in 0..cells {
        let outputs = if n == 0 { json!([output]) } else { json!([]) };
        all.push(
            json!({"cell_type": "code", "id": format!("c{n}"), "execution_count": null,
            "metadata": {}, "source": [format!("x = {n}")], "outputs": outputs}),
        );
    }
    json!({"cells": all, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
        .to_string()
        .into_bytes()
}

/// Inputs that once turned a parser against the session: the YAML syntax
/// check, the notebook reader and editor, the PDF text extractor.
fn parser_bombs(files: &mut Vec<Hostile>) {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for n in 1..10 {
        let p = n - 1;
        let _ = writeln!(
            bomb,
            "a{n}: &a{n} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]"
        );
    }
    let mut merges = String::from("k0: &k0 {v0: 0}\n");
    for n in 1..10_000 {
        let p = n - 1;
        let _ = write!(merges, "k{n}: &k{n}\n  <<: *k{p}\n  v{n}: {n}\n");
    }
    let deep = format!("{}x\n", "- ".repeat(100_000));
    for (name, text, old) in [
        ("alias-bomb.yaml", bomb, "a0: &a0 [x"),
        ("merge-chain.yaml", merges, "k0: &k0 {v0: 0}"),
        ("deep-sequence.yaml", deep, "x\n"),
    ] {
        let then = Some(edit(name, old, &old.replace('x', "y").replace("v0", "w0")));
        files.push(Hostile {
            class: Class::YamlBomb,
            name: name.to_owned(),
            bytes: text.into_bytes(),
            pages: None,
            then,
        });
    }
    let numbers = |count: usize| -> serde_json::Value {
        json!({"output_type": "display_data", "metadata": {},
            "data": {"application/json": (0..count).collect::<Vec<_>>(), "text/plain": ["<plot>"]}})
    };
    let notebook_edit = |cell: &str| {
        Some((
            "notebook_edit".to_owned(),
            json!({"notebook_path": "", "cell_id": cell, "new_source": "x = 'edited'"}),
        ))
    };
    for (name, bytes, then) in [
        (
            "numbers-2m.ipynb",
            notebook_of(2, &numbers(2_000_000)),
            notebook_edit("c1"),
        ),
        (
            "numbers-7m.ipynb",
            notebook_of(1, &numbers(7_000_000)),
            None,
        ),
        (
            "cells-100k.ipynb",
            notebook_of(
                100_000,
                &json!({"output_type": "stream", "name": "stdout", "text": ["1\n"]}),
            ),
            notebook_edit("c99999"),
        ),
    ] {
        let then = then.map(|(tool, mut args)| {
            args["notebook_path"] = json!(name);
            (tool, args)
        });
        files.push(Hostile {
            class: Class::NotebookHuge,
            name: name.to_owned(),
            bytes,
            pages: None,
            then,
        });
    }
    let flood = "0 0 m\n".repeat(700_000);
    let media = "/MediaBox [0 0 612 792]";
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    files.push(Hostile {
        class: Class::PdfOperators,
        name: "operators-700k.pdf".to_owned(),
        bytes: one_page(media, "", ("", flood.as_bytes()), font),
        pages: None,
        then: None,
    });
    let repeated_notebook = br#"{"cells": [{"cell_type": "code", "id": "a", "id": "b", "execution_count": null, "metadata": {}, "source": ["1"], "outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"#;
    files.push(Hostile {
        class: Class::DuplicateKeys,
        name: "repeated.ipynb".to_owned(),
        bytes: repeated_notebook.to_vec(),
        pages: None,
        then: Some((
            "notebook_edit".to_owned(),
            json!({"notebook_path": "repeated.ipynb", "cell_id": "b", "new_source": "2"}),
        )),
    });
    files.push(Hostile {
        class: Class::DuplicateKeys,
        name: "repeated.json".to_owned(),
        bytes: br#"{"a": 1, "a": 2, "b": {"c": 3, "c": 4}}"#.to_vec(),
        pages: None,
        then: Some(edit("repeated.json", r#""b": {"#, r#""d": {"#)),
    });
}
