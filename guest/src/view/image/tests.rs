//! Images through a session: each test names the rule it pins down.

use crate::answers::result::{Block, ToolResult};
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

/// A `width`×`height` RGB gradient as PNG.
pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
    let pixels: Vec<u8> = (0..height)
        .flat_map(|y| {
            (0..width).flat_map(move |x| [(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8])
        })
        .collect();
    encode_png(width, height, &pixels)
}

/// A `width`×`height` PNG of noise, which compresses badly.
fn noise_png(width: u32, height: u32) -> Vec<u8> {
    let mut state = 0x2545_F491_u32;
    let pixels: Vec<u8> = (0..width * height * 3)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect();
    encode_png(width, height, &pixels)
}

fn encode_png(width: u32, height: u32, pixels: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut encoder = png::Encoder::new(&mut data, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(pixels).unwrap();
    drop(writer);
    data
}

/// A `width`×`height` JPEG with EXIF orientation `orientation`.
fn jpeg(width: u16, height: u16, orientation: u16) -> Vec<u8> {
    let mut data = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut data, 90);
    let mut exif = b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0".to_vec();
    exif.extend_from_slice(&orientation.to_le_bytes());
    exif.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    encoder.add_app_segment(1, &exif).unwrap();
    let pixels = vec![200u8; usize::from(width) * usize::from(height) * 3];
    encoder
        .encode(&pixels, width, height, jpeg_encoder::ColorType::Rgb)
        .unwrap();
    data
}

fn read(fs: MemFs, path: &str) -> ToolResult {
    let mut session = Session::open("{}", fs).unwrap();
    session.call("read", &format!(r#"{{"file_path": "{path}"}}"#))
}

fn image_of(result: &ToolResult) -> (&str, u32, u32, usize) {
    match &result.content[1] {
        Block::Image {
            mime_type,
            width,
            height,
            data,
        } => (mime_type.as_str(), *width, *height, data.len()),
        Block::Text(text) => panic!("no image: {text}"),
    }
}

#[test]
fn a_large_png_is_scaled_to_the_limits_with_its_factor() {
    let fs = MemFs::new();
    fs.add_file("shot.png", &png(4000, 3000));
    let result = read(fs, "shot.png");
    assert!(!result.is_error);
    let (mime, width, height, bytes) = image_of(&result);
    assert_eq!((mime, width, height), ("image/jpeg", 1238, 928));
    assert!(bytes as u64 <= crate::config::DEFAULT_MAX_IMAGE_BYTES);
    let text = result.text();
    assert!(text.starts_with("[image: PNG 4000x3000, "), "{text}");
    assert!(
        text.contains("shown at 1238x928 as JPEG (quality 85, "),
        "{text}"
    );
    assert!(
        text.ends_with("multiply coordinates in it by 3.23 for the original]"),
        "{text}"
    );
}

#[test]
fn a_small_image_is_sent_as_it_is() {
    let fs = MemFs::new();
    let data = png(64, 48);
    fs.add_file("icon.bin", &data);
    let result = read(fs, "icon.bin");
    assert_eq!(image_of(&result), ("image/png", 64, 48, data.len()));
    assert!(result.text().ends_with("; shown as it is]"));
}

#[test]
fn a_jpeg_stored_sideways_is_turned_upright() {
    let fs = MemFs::new();
    fs.add_file("photo.jpg", &jpeg(40, 20, 6));
    let result = read(fs, "photo.jpg");
    let (mime, width, height, _) = image_of(&result);
    assert_eq!((mime, width, height), ("image/jpeg", 20, 40));
    assert!(
        result
            .text()
            .contains("turned upright by its EXIF orientation"),
        "{}",
        result.text()
    );
}

#[test]
fn the_byte_budget_lowers_quality_then_size() {
    let fs = MemFs::new();
    fs.add_file("big.png", &noise_png(1200, 900));
    let mut session = Session::open(r#"{"max_image_bytes": 30000}"#, fs).unwrap();
    let result = session.call("read", r#"{"file_path": "big.png"}"#);
    let (_, _, _, bytes) = image_of(&result);
    assert!(bytes <= 30000, "{bytes}");
    assert!(
        result.text().contains("as JPEG (quality"),
        "{}",
        result.text()
    );
}

#[test]
fn a_broken_image_is_described_not_failed() {
    let fs = MemFs::new();
    fs.add_file("bad.png", b"\x89PNG\r\n\x1a\nnot really");
    let result = read(fs, "bad.png");
    assert!(!result.is_error);
    assert!(
        result.text().contains("cannot be decoded"),
        "{}",
        result.text()
    );
}

#[test]
fn the_first_frame_of_a_gif_is_shown() {
    let mut data = Vec::new();
    {
        let palette = [255, 0, 0, 0, 0, 255];
        let mut encoder = gif::Encoder::new(&mut data, 4, 2, &palette).unwrap();
        let first = gif::Frame {
            width: 4,
            height: 2,
            buffer: std::borrow::Cow::Owned(vec![0, 0, 1, 1, 0, 0, 1, 1]),
            ..gif::Frame::default()
        };
        encoder.write_frame(&first).unwrap();
        let second = gif::Frame {
            width: 4,
            height: 2,
            buffer: std::borrow::Cow::Owned(vec![1; 8]),
            ..gif::Frame::default()
        };
        encoder.write_frame(&second).unwrap();
    }
    let fs = MemFs::new();
    fs.add_file("anim.gif", &data);
    let result = read(fs, "anim.gif");
    assert_eq!(image_of(&result), ("image/gif", 4, 2, data.len()));
    let decoded = super::decode::decode(&data, "image/gif", 1 << 20).unwrap();
    assert_eq!(&decoded.pixels.rgba[..4], &[255, 0, 0, 255]);
    assert_eq!(&decoded.pixels.rgba[8..12], &[0, 0, 255, 255]);
}

#[test]
fn webp_images_are_decoded() {
    let mut data = Vec::new();
    let pixels: Vec<u8> = (0..3000u32 * 2000)
        .flat_map(|i| [(i % 256) as u8, 40, 90])
        .collect();
    image_webp::WebPEncoder::new(&mut data)
        .encode(&pixels, 3000, 2000, image_webp::ColorType::Rgb8)
        .unwrap();
    let fs = MemFs::new();
    fs.add_file("wide.webp", &data);
    let result = read(fs, "wide.webp");
    let (mime, width, height, _) = image_of(&result);
    assert_eq!((mime, width, height), ("image/jpeg", 1314, 875));
    assert!(
        result.text().starts_with("[image: WebP 3000x2000, "),
        "{}",
        result.text()
    );
}
