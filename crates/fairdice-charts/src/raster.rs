//! PNG from a chart's SVG: resvg draws the very SVG the browser shows, with DejaVu
//! Sans embedded in the binary, so no system fonts or fontconfig are needed and a
//! PNG looks the same on every machine.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use crate::ChartError;

/// DejaVu Sans (see `fonts/LICENSE`).
static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The largest PNG side, in pixels, after scaling.
pub use crate::MAX_PNG_SIDE;

/// The font database holding the embedded font, loaded once.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(DEJAVU_SANS.to_vec());
            db.set_sans_serif_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

/// Rasterizes `svg` to PNG bytes at `scale` times its own size (2 for sharp
/// screenshots on high-density screens).
///
/// # Errors
/// [`ChartError::Svg`] if the text is not SVG, [`ChartError::Size`] if the scaled
/// image would be empty or wider or higher than [`MAX_PNG_SIDE`], and
/// [`ChartError::Png`] if encoding fails.
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, ChartError> {
    let options = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| ChartError::Svg(e.to_string()))?;
    let size = tree.size();
    let (width, height) = (size.width() * scale, size.height() * scale);
    let limit = MAX_PNG_SIDE as f32;
    if !(scale > 0.0 && width >= 1.0 && height >= 1.0 && width <= limit && height <= limit) {
        return Err(ChartError::Size { width, height });
    }
    let mut pixmap = Pixmap::new(width.round() as u32, height.round() as u32)
        .ok_or(ChartError::Size { width, height })?;
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| ChartError::Png(e.to_string()))
}
