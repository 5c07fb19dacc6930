//! One call's answer, as the model gets it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

/// The outcome of one tool call: its blocks, whether it failed, and the
/// facts a program reads (`structured_content`).
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct ToolResult {
    result: filetools::ToolResult,
}

impl ToolResult {
    pub fn new(result: filetools::ToolResult) -> Self {
        Self { result }
    }
}

/// A text block.
#[pyclass(module = "filetools._native", frozen, eq)]
#[derive(Debug, PartialEq, Eq)]
pub struct TextBlock {
    /// The text.
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl TextBlock {
    #[new]
    fn new(text: String) -> Self {
        Self { text }
    }

    /// Always `"text"`.
    #[getter(r#type)]
    #[expect(clippy::unused_self, reason = "a Python property")]
    fn kind(&self) -> &'static str {
        "text"
    }

    fn __repr__(&self) -> String {
        format!("TextBlock({} chars)", self.text.chars().count())
    }
}

/// An image block: encoded bytes and their MIME type.
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct ImageBlock {
    /// MIME type, e.g. `image/png`.
    #[pyo3(get)]
    mime_type: String,
    data: Vec<u8>,
    /// Width in pixels.
    #[pyo3(get)]
    width: u32,
    /// Height in pixels.
    #[pyo3(get)]
    height: u32,
}

#[pymethods]
impl ImageBlock {
    /// Always `"image"`.
    #[getter(r#type)]
    #[expect(clippy::unused_self, reason = "a Python property")]
    fn kind(&self) -> &'static str {
        "image"
    }

    /// The encoded image.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.data)
    }

    /// The encoded image in base64, as the model APIs take it.
    #[getter]
    fn base64(&self) -> String {
        filetools_core::base64_encode(&self.data)
    }

    fn __repr__(&self) -> String {
        format!(
            "ImageBlock({} {}x{}, {} bytes)",
            self.mime_type,
            self.width,
            self.height,
            self.data.len()
        )
    }
}

#[pymethods]
impl ToolResult {
    /// Whether the call failed (the text says why and what to do next).
    #[getter]
    fn is_error(&self) -> bool {
        self.result.is_error
    }

    /// Every text block, joined by newlines.
    #[getter]
    fn text(&self) -> String {
        self.result.text()
    }

    /// The blocks in reading order: `TextBlock`s and `ImageBlock`s.
    #[getter]
    fn content<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for block in &self.result.content {
            match block {
                filetools::Block::Text(text) => list.append(TextBlock { text: text.clone() })?,
                filetools::Block::Image {
                    mime_type,
                    data,
                    width,
                    height,
                } => list.append(ImageBlock {
                    mime_type: mime_type.clone(),
                    data: data.clone(),
                    width: *width,
                    height: *height,
                })?,
            }
        }
        Ok(list)
    }

    /// The machine-readable facts (the MCP answer's `structuredContent`)
    /// as a dict, or `None` when the answer has none.
    #[getter]
    fn structured_content<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.result.metadata.is_null() {
            return Ok(py.None().into_bound(py));
        }
        py.import("json")?
            .call_method1("loads", (self.result.metadata_json(),))
    }

    /// The machine-readable facts as JSON text, keys sorted: the same
    /// bytes on every host.
    #[getter]
    fn metadata_json(&self) -> String {
        self.result.metadata_json()
    }

    /// The answer as an MCP `CallToolResult` in JSON text: the line
    /// `filetools session` prints for the same call.
    fn to_json(&self) -> String {
        self.result.to_json().to_string()
    }

    fn __repr__(&self) -> String {
        let status = if self.result.is_error { "error" } else { "ok" };
        format!(
            "ToolResult({status}, {} blocks, {} chars of text)",
            self.result.content.len(),
            self.result.text().chars().count()
        )
    }
}
