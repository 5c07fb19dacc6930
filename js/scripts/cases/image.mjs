// Images drawn for the cases as the Rust layout draws them
// (tests/layout/src/images.rs): a gradient, as a PNG or a JPEG.
import { encodeJpeg } from './jpeg.mjs';
import { encodePng } from './png.mjs';

/** The file of an image spec `{format: "png" | "jpeg", width, height, orientation}`. */
export function drawImage({ format, width, height, orientation }) {
  const rgb = new Uint8Array(width * height * 3);
  let at = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      rgb[at++] = x % 251;
      rgb[at++] = y % 241;
      rgb[at++] = (x * 3 + y * 7) % 239;
    }
  }
  if (format === 'png') {
    return encodePng(width, height, rgb);
  }
  if (format === 'jpeg') {
    return encodeJpeg(width, height, rgb, orientation);
  }
  throw new Error(`unknown image format ${JSON.stringify(format)}`);
}
