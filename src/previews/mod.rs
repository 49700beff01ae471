//! Previews of stored files (issue 21): a thumbnail about 320 px wide (at most 40 KB) and a
//! large preview about 1,200 px wide, both JPEG, of pictures (JPEG, PNG, GIF, WebP), SVG
//! drawings and the first page of PDFs.
//!
//! Everything here is pure Rust: `image` decodes and scales pictures, `resvg` draws SVG and
//! `hayro` rasterises PDF pages (no C library, no external program). Rendering a hostile file
//! may still take long or much memory, so the portal never renders in its own process:
//! [`isolated`] runs [`render`] in a child process of the portal's own binary with a memory
//! and CPU limit and a deadline, and gives up with a log line.

pub mod isolated;

use std::io::Cursor;
use std::sync::Arc;

use image::imageops::FilterType;
use image::{DynamicImage, ImageReader, RgbImage};

/// Width of a thumbnail in pixels (the card and the table show it at 160 CSS px, sharp on
/// screens with two device pixels per CSS pixel).
pub const THUMB_WIDTH: u32 = 320;
/// Width of the large preview in pixels.
pub const LARGE_WIDTH: u32 = 1200;
/// A thumbnail is at most this large; its JPEG quality is lowered until it fits.
pub const THUMB_MAX_BYTES: usize = 40 * 1024;
/// No preview is taller than this many times its width (a long strip is cut off at the
/// bottom, like a page's first screen).
const MAX_ASPECT: u32 = 3;
/// Pictures are decoded only up to this size in pixels per side, and this much memory.
const MAX_SIDE: u32 = 16_384;
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// What kind of drawing a file is, as far as previews go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawingKind {
    /// JPEG, PNG, GIF (its first frame) or WebP.
    Picture,
    Svg,
    /// The first page of a PDF.
    Pdf,
}

impl DrawingKind {
    /// The kind of a stored file's content type; `None` for files without previews (videos,
    /// office files, archives keep their type icon).
    pub fn of(content_type: &str) -> Option<DrawingKind> {
        match content_type {
            "image/jpeg" | "image/png" | "image/gif" | "image/webp" => Some(DrawingKind::Picture),
            "image/svg+xml" => Some(DrawingKind::Svg),
            "application/pdf" => Some(DrawingKind::Pdf),
            _ => None,
        }
    }

    /// The content types [`Kind::of`] knows (for queries).
    pub const CONTENT_TYPES: [&'static str; 6] = [
        "image/jpeg",
        "image/png",
        "image/gif",
        "image/webp",
        "image/svg+xml",
        "application/pdf",
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DrawingKind::Picture => "picture",
            DrawingKind::Svg => "svg",
            DrawingKind::Pdf => "pdf",
        }
    }

    pub fn parse(text: &str) -> Option<DrawingKind> {
        [DrawingKind::Picture, DrawingKind::Svg, DrawingKind::Pdf]
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }
}

/// One preview: JPEG bytes and their size in pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Both previews of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub thumb: Preview,
    pub large: Preview,
}

/// Why a file has no preview.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error("not readable: {0}")]
    Unreadable(String),
    #[error("too large: {0}")]
    TooLarge(String),
    #[error("empty drawing")]
    Empty,
    #[error("encoding failed: {0}")]
    Encoding(String),
}

/// Renders both previews of a file of `kind`.
pub fn render(bytes: &[u8], kind: DrawingKind) -> Result<Rendered, PreviewError> {
    let picture = match kind {
        DrawingKind::Picture => decode_picture(bytes)?,
        DrawingKind::Svg => draw_svg(bytes)?,
        DrawingKind::Pdf => draw_first_page(bytes)?,
    };
    previews_of(&picture)
}

/// A picture decoded within limits; transparent parts become white (JPEG has no alpha).
fn decode_picture(bytes: &[u8]) -> Result<RgbImage, PreviewError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PreviewError::Unreadable(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(limit) => PreviewError::TooLarge(limit.to_string()),
        other => PreviewError::Unreadable(other.to_string()),
    })?;
    Ok(on_white(image))
}

fn on_white(image: DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    let (width, height) = rgba.dimensions();
    let mut rgb = RgbImage::new(width, height);
    for (target, source) in rgb.pixels_mut().zip(rgba.pixels()) {
        let alpha = u32::from(source[3]);
        for channel in 0..3 {
            let value = u32::from(source[channel]);
            target[channel] = ((value * alpha + 255 * (255 - alpha)) / 255) as u8;
        }
    }
    rgb
}

/// The pixel size to draw a `width` × `height` drawing at: [`LARGE_WIDTH`] wide (or its
/// own width when it is smaller), at most [`MAX_ASPECT`] times as tall as wide.
fn target_size(width: f32, height: f32) -> Result<(u32, u32), PreviewError> {
    if !(width.is_finite() && height.is_finite()) || width < 1.0 || height < 1.0 {
        return Err(PreviewError::Empty);
    }
    let scale = (LARGE_WIDTH as f32 / width).min(LARGE_WIDTH as f32 * MAX_ASPECT as f32 / height);
    let target_width = (width * scale).round().clamp(1.0, LARGE_WIDTH as f32) as u32;
    let target_height = (height * scale)
        .round()
        .clamp(1.0, (LARGE_WIDTH * MAX_ASPECT) as f32) as u32;
    Ok((target_width, target_height))
}

/// The first of `families` the system has.
fn first_family(fonts: &resvg::usvg::fontdb::Database, families: &[&str]) -> Option<String> {
    families
        .iter()
        .find(|family| {
            fonts
                .faces()
                .any(|face| face.families.iter().any(|(name, _)| name == *family))
        })
        .map(|family| family.to_string())
}

/// Fonts for the text of SVG drawings: those of the system (e.g. Debian's fonts-liberation or
/// fonts-dejavu), with the generic families (`sans-serif`, …) mapped to fonts it has, since
/// fontdb does not ask fontconfig.
fn svg_options() -> resvg::usvg::Options<'static> {
    let mut fonts = resvg::usvg::fontdb::Database::new();
    fonts.load_system_fonts();
    let sans = first_family(
        &fonts,
        &[
            "Liberation Sans",
            "DejaVu Sans",
            "Noto Sans",
            "Arial",
            "Helvetica",
        ],
    );
    if let Some(family) = &sans {
        fonts.set_sans_serif_family(family.clone());
    }
    if let Some(family) = first_family(
        &fonts,
        &[
            "Liberation Serif",
            "DejaVu Serif",
            "Noto Serif",
            "Times New Roman",
        ],
    ) {
        fonts.set_serif_family(family);
    }
    if let Some(family) = first_family(
        &fonts,
        &["Liberation Mono", "DejaVu Sans Mono", "Noto Sans Mono"],
    ) {
        fonts.set_monospace_family(family);
    }
    let mut options = resvg::usvg::Options {
        font_family: sans.unwrap_or_else(|| "sans-serif".into()),
        fontdb: Arc::new(fonts),
        ..resvg::usvg::Options::default()
    };
    // An uploaded drawing must not pull in files of the server (`<image href="/etc/…">`).
    options.image_href_resolver.resolve_string = Box::new(|_, _| None);
    options
}

fn draw_svg(bytes: &[u8]) -> Result<RgbImage, PreviewError> {
    let tree = resvg::usvg::Tree::from_data(bytes, &svg_options())
        .map_err(|e| PreviewError::Unreadable(e.to_string()))?;
    let size = tree.size();
    let (width, height) = target_size(size.width(), size.height())?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).ok_or(PreviewError::Empty)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let transform = resvg::tiny_skia::Transform::from_scale(
        width as f32 / size.width(),
        width as f32 / size.width(),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    // Opaque on white, so the premultiplied bytes are the plain ones.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    RgbImage::from_raw(width, height, rgb).ok_or(PreviewError::Empty)
}

fn draw_first_page(bytes: &[u8]) -> Result<RgbImage, PreviewError> {
    use hayro::hayro_interpret::InterpreterSettings;
    use hayro::hayro_syntax::Pdf;
    let pdf = Pdf::new(Arc::new(bytes.to_vec()))
        .map_err(|e| PreviewError::Unreadable(format!("{e:?}")))?;
    let pages = pdf.pages();
    let page = pages.first().ok_or(PreviewError::Empty)?;
    let (width, height) = page.render_dimensions();
    let (target_width, _) = target_size(width, height)?;
    let scale = target_width as f32 / width;
    // A page much taller than wide is drawn whole and cut to MAX_ASPECT below; its height
    // is bounded by the scale (at most LARGE_WIDTH / width) and u16 pixels.
    let pixmap = hayro::render(
        page,
        &hayro::RenderCache::new(),
        &InterpreterSettings::default(),
        &hayro::RenderSettings::default(),
        &hayro::PixmapSettings {
            x_scale: scale,
            y_scale: scale,
            bg_color: hayro::vello_cpu::color::palette::css::WHITE,
        },
    );
    let (pixel_width, pixel_height) = (u32::from(pixmap.width()), u32::from(pixmap.height()));
    if pixel_width == 0 || pixel_height == 0 {
        return Err(PreviewError::Empty);
    }
    let rgba = pixmap.take_rgba8(hayro::vello_cpu::peniko::ImageAlphaType::AlphaPremultiplied);
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    RgbImage::from_raw(pixel_width, pixel_height, rgb).ok_or(PreviewError::Empty)
}

/// The large preview and the thumbnail of a drawing.
fn previews_of(picture: &RgbImage) -> Result<Rendered, PreviewError> {
    let large = scaled(picture, LARGE_WIDTH);
    let large = Preview {
        width: large.width(),
        height: large.height(),
        jpeg: jpeg(&large, 82)?,
    };
    let thumb_image = scaled(picture, THUMB_WIDTH);
    let mut quality = 80;
    let thumb = loop {
        let bytes = jpeg(&thumb_image, quality)?;
        if bytes.len() <= THUMB_MAX_BYTES || quality <= 30 {
            break bytes;
        }
        quality -= 10;
    };
    Ok(Rendered {
        thumb: Preview {
            width: thumb_image.width(),
            height: thumb_image.height(),
            jpeg: thumb,
        },
        large,
    })
}

/// The picture at most `width` wide and [`MAX_ASPECT`] times as tall (cut at the bottom),
/// never enlarged.
fn scaled(picture: &RgbImage, width: u32) -> RgbImage {
    let (own_width, own_height) = picture.dimensions();
    let kept_height = own_height.min(own_width.saturating_mul(MAX_ASPECT)).max(1);
    let cut;
    let source = if kept_height < own_height {
        cut = image::imageops::crop_imm(picture, 0, 0, own_width, kept_height).to_image();
        &cut
    } else {
        picture
    };
    if own_width <= width {
        return source.clone();
    }
    let height = ((u64::from(kept_height) * u64::from(width)) / u64::from(own_width)).max(1);
    image::imageops::resize(source, width, height as u32, FilterType::Triangle)
}

fn jpeg(picture: &RgbImage, quality: u8) -> Result<Vec<u8>, PreviewError> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(picture)
        .map_err(|e| PreviewError::Encoding(e.to_string()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLYER: &[u8] = include_bytes!("../../assets/seed/flyer.pdf");
    const PRICES: &[u8] = include_bytes!("../../assets/seed/preisliste.pdf");
    const BANNER: &[u8] = include_bytes!("../../assets/seed/banner-blau.png");

    fn jpeg_size(bytes: &[u8]) -> (u32, u32) {
        let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg).unwrap();
        (image.width(), image.height())
    }

    fn assert_previews(rendered: &Rendered) {
        assert!(
            rendered.thumb.width <= THUMB_WIDTH,
            "{}",
            rendered.thumb.width
        );
        assert!(rendered.thumb.jpeg.len() <= THUMB_MAX_BYTES);
        assert!(rendered.large.width <= LARGE_WIDTH);
        assert_eq!(
            jpeg_size(&rendered.thumb.jpeg),
            (rendered.thumb.width, rendered.thumb.height)
        );
        assert_eq!(
            jpeg_size(&rendered.large.jpeg),
            (rendered.large.width, rendered.large.height)
        );
    }

    #[test]
    fn the_seed_pdfs_first_pages_become_previews() {
        for pdf in [FLYER, PRICES] {
            let rendered = render(pdf, DrawingKind::Pdf).unwrap();
            assert_previews(&rendered);
            assert_eq!(rendered.thumb.width, THUMB_WIDTH);
            // A4 portrait: taller than wide.
            assert!(rendered.large.height > rendered.large.width);
            // Not a blank page: the thumbnail has dark pixels (text).
            let thumb = image::load_from_memory(&rendered.thumb.jpeg)
                .unwrap()
                .into_luma8();
            assert!(thumb.pixels().any(|p| p[0] < 100), "the page has ink");
        }
    }

    #[test]
    fn pictures_become_previews_and_keep_their_proportions() {
        let rendered = render(BANNER, DrawingKind::Picture).unwrap();
        assert_previews(&rendered);
        let banner = image::load_from_memory(BANNER).unwrap();
        assert_eq!(
            rendered.thumb.width * banner.height(),
            rendered.thumb.height * banner.width()
        );
        let mut wide = RgbImage::new(1600, 400);
        wide.pixels_mut()
            .for_each(|p| *p = image::Rgb([10, 200, 10]));
        let rendered = previews_of(&wide).unwrap();
        assert_eq!((rendered.thumb.width, rendered.thumb.height), (320, 80));
        assert_eq!((rendered.large.width, rendered.large.height), (1200, 300));
        // A small picture is not enlarged; a transparent one is laid on white.
        let mut small = image::RgbaImage::new(40, 20);
        small
            .pixels_mut()
            .for_each(|p| *p = image::Rgba([0, 0, 0, 0]));
        let mut png = Vec::new();
        DynamicImage::ImageRgba8(small)
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let rendered = render(&png, DrawingKind::Picture).unwrap();
        assert_eq!((rendered.thumb.width, rendered.thumb.height), (40, 20));
        let white = image::load_from_memory(&rendered.thumb.jpeg)
            .unwrap()
            .into_rgb8();
        assert!(
            white
                .pixels()
                .all(|p| p[0] > 240 && p[1] > 240 && p[2] > 240)
        );
    }

    /// Whether a preview has a clearly red pixel (JPEG blurs edges and colours a little).
    fn has_red(jpeg: &[u8]) -> bool {
        image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
            .unwrap()
            .into_rgb8()
            .pixels()
            .any(|p| p[0] > 180 && p[1] < 80 && p[2] < 80)
    }

    /// A blue drawing with white text, and one `<image>` over all of it.
    fn drawing_with_image(attribute: &str, href: &str) -> Vec<u8> {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="600" height="800">
            <rect width="600" height="800" fill="#123456"/>
            <text x="40" y="120" font-size="60" fill="#ffffff">Wechselbonus</text>
            <image {attribute}="{href}" x="0" y="200" width="600" height="600"/>
        </svg>"##
        )
        .into_bytes()
    }

    #[test]
    fn svg_drawings_become_previews_and_read_no_server_files() {
        use base64::Engine;
        // Red pictures on the server's disk: a PNG, and a drawing, which this build draws
        // inside drawings (it draws no raster pictures there; the PNG stays for the day it
        // does).
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("rot.png");
        RgbImage::from_pixel(60, 60, image::Rgb([255, 0, 0]))
            .save(&png)
            .unwrap();
        let red_svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><rect width="60" height="60" fill="#ff0000"/></svg>"##;
        let svg = dir.path().join("rot.svg");
        std::fs::write(&svg, red_svg).unwrap();

        // The check can see red: the same drawing sent inside the upload (a data URL) is drawn.
        let inline = format!(
            "data:image/svg+xml;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(red_svg)
        );
        let rendered = render(&drawing_with_image("href", &inline), DrawingKind::Svg).unwrap();
        assert!(
            has_red(&rendered.large.jpeg),
            "an embedded drawing is drawn"
        );

        for file in [&png, &svg] {
            let path = file.to_str().unwrap().to_string();
            for (attribute, href) in [
                ("href", path.clone()),
                ("xlink:href", path.clone()),
                ("href", format!("file://{path}")),
                ("xlink:href", format!("file://{path}")),
            ] {
                let rendered =
                    render(&drawing_with_image(attribute, &href), DrawingKind::Svg).unwrap();
                assert_previews(&rendered);
                // A drawing is drawn at the preview's width, whatever its own size.
                assert_eq!((rendered.large.width, rendered.large.height), (1200, 1600));
                for preview in [&rendered.large, &rendered.thumb] {
                    assert!(!has_red(&preview.jpeg), "{attribute}=\"{href}\" was read");
                }
                let thumb = image::load_from_memory(&rendered.thumb.jpeg)
                    .unwrap()
                    .into_rgb8();
                let corner = thumb.get_pixel(2, 2);
                assert!(corner[2] > corner[0], "the blue background: {corner:?}");
            }
        }
    }

    #[test]
    fn a_very_long_drawing_is_cut_to_three_times_its_width() {
        let mut tall = RgbImage::new(100, 10_000);
        tall.pixels_mut()
            .for_each(|p| *p = image::Rgb([200, 10, 10]));
        let rendered = previews_of(&tall).unwrap();
        assert_eq!((rendered.large.width, rendered.large.height), (100, 300));
    }

    #[test]
    fn broken_and_hostile_files_are_refused_within_limits() {
        // A truncated PDF, a PDF with nothing but garbage, and an empty file.
        let truncated = &FLYER[..FLYER.len() / 3];
        for bad in [truncated, b"%PDF-1.4\n garbage".as_slice(), b"".as_slice()] {
            match render(bad, DrawingKind::Pdf) {
                Err(_) => {}
                // hayro repairs what it can; whatever it draws must be a preview.
                Ok(rendered) => assert_previews(&rendered),
            }
        }
        // A page of 200 × 200 metres: drawn at the preview's size, not the page's.
        let huge = giant_page_pdf(566_929.0);
        let rendered = render(&huge, DrawingKind::Pdf).unwrap();
        assert_eq!(rendered.large.width, LARGE_WIDTH);
        // A picture that claims 60,000 × 60,000 pixels is refused before it is decoded.
        let png = png_claiming(60_000, 60_000);
        assert!(matches!(
            render(&png, DrawingKind::Picture),
            Err(PreviewError::TooLarge(_))
        ));
        assert!(render(b"<svg", DrawingKind::Svg).is_err());
        assert!(render(b"not a picture", DrawingKind::Picture).is_err());
    }

    /// A one-page PDF whose page is `side` points square.
    pub(crate) fn giant_page_pdf(side: f32) -> Vec<u8> {
        let content = "0 0 1 rg 0 0 100000 100000 re f";
        crate::test_support::pdf_of(&[
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {side} {side}] /Contents 4 0 R >>"
            ),
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            ),
        ])
    }

    /// A PNG header that claims `width` × `height` pixels, with a tiny broken body.
    pub(crate) fn png_claiming(width: u32, height: u32) -> Vec<u8> {
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
        let crc = crc32fast::hash(&ihdr);
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend_from_slice(&13u32.to_be_bytes());
        png.extend_from_slice(&ihdr);
        png.extend_from_slice(&crc.to_be_bytes());
        png.extend_from_slice(&[0, 0, 0, 0]);
        png
    }
}
