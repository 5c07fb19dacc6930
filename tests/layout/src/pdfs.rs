//! PDFs written at test time for the cases (never committed): one page per
//! entry of `pages`, each showing its text in Helvetica; an empty entry is a
//! page without a text layer.

use std::fmt::Write as _;

use serde::Deserialize;

/// A PDF to write: `{"pages": ["text of page 1", "", ...]}` or, for many
/// pages, `{"count": 30, "text": "Page {n}"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdfSpec {
    /// The text of each page.
    #[serde(default)]
    pub pages: Vec<String>,
    /// Pages to generate from `text` (`{n}` is the 1-based page number).
    #[serde(default)]
    pub count: usize,
    /// The text of generated pages.
    #[serde(default)]
    pub text: String,
}

impl PdfSpec {
    /// The PDF file.
    pub fn write(&self) -> Vec<u8> {
        let mut pages = self.pages.clone();
        pages.extend((1..=self.count).map(|n| self.text.replace("{n}", &n.to_string())));
        let font = 3 + 2 * pages.len();
        let mut objects: Vec<String> = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
            format!(
                "<< /Type /Pages /Kids [{}] /Count {} >>",
                (0..pages.len())
                    .map(|i| format!("{} 0 R", 3 + 2 * i))
                    .collect::<Vec<_>>()
                    .join(" "),
                pages.len()
            ),
        ];
        for (i, text) in pages.iter().enumerate() {
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font} 0 R >> >> /Contents {} 0 R >>",
                4 + 2 * i
            ));
            let mut content = String::new();
            for (line, words) in text.split('\n').enumerate() {
                if words.is_empty() {
                    continue;
                }
                let escaped = words
                    .replace('\\', "\\\\")
                    .replace('(', "\\(")
                    .replace(')', "\\)");
                let _ = writeln!(
                    content,
                    "BT /F1 12 Tf 72 {} Td ({escaped}) Tj ET",
                    720 - 16 * line
                );
            }
            objects.push(format!(
                "<< /Length {} >>\nstream\n{content}endstream",
                content.len()
            ));
        }
        objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned());
        let objects: Vec<Vec<u8>> = objects.into_iter().map(String::into_bytes).collect();
        document(&objects)
    }
}

/// A PDF file of `objects` (bodies, numbered from 1), with its cross-reference
/// table and a trailer whose root is object 1.
pub fn document(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (n, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", n + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    let mut tail = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for offset in offsets {
        let _ = writeln!(tail, "{offset:010} 00000 n ");
    }
    let _ = write!(
        tail,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    out.extend_from_slice(tail.as_bytes());
    out
}
