//! Colours: distinct series colours that colour-blind readers can tell apart, and a
//! perceptually uniform scale for heat maps.
//!
//! # Design decisions
//! Series use the Okabe–Ito palette (without its yellow, too pale on white). Heat
//! maps use viridis, whose lightness rises steadily from 0 to 1, so a grey-scale
//! print or a colour-blind reader still reads the order of the values.

/// Colour of the `index`-th series (the palette repeats after seven).
pub fn series_colour(index: usize) -> &'static str {
    const OKABE_ITO: [&str; 7] = [
        "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#000000",
    ];
    OKABE_ITO[index % OKABE_ITO.len()]
}

/// Viridis at eleven evenly spaced points, interpolated in between.
const VIRIDIS: [(u8, u8, u8); 11] = [
    (68, 1, 84),
    (72, 36, 117),
    (65, 68, 135),
    (53, 95, 141),
    (42, 120, 142),
    (33, 145, 140),
    (34, 168, 132),
    (68, 191, 112),
    (122, 209, 81),
    (189, 223, 38),
    (253, 231, 37),
];

/// The heat-map colour of `value` in [0, 1] (clamped; not-a-number is grey).
pub fn heat_colour(value: f64) -> String {
    if value.is_nan() {
        return "#d1d5db".to_string();
    }
    let t = value.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (t.floor() as usize).min(VIRIDIS.len() - 2);
    let f = t - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Text colour readable on the heat-map colour of `value`: white on the dark half.
pub fn heat_text_colour(value: f64) -> &'static str {
    if value.is_nan() || value >= 0.55 {
        "#111827"
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_scale_runs_from_purple_to_yellow() {
        assert_eq!(heat_colour(0.0), "#440154");
        assert_eq!(heat_colour(1.0), "#fde725");
        assert_eq!(heat_colour(2.0), "#fde725");
        assert_eq!(heat_colour(f64::NAN), "#d1d5db");
        assert_eq!(heat_colour(0.5).len(), 7);
    }

    #[test]
    fn series_colours_repeat() {
        assert_eq!(series_colour(0), series_colour(7));
        assert_ne!(series_colour(0), series_colour(1));
    }
}
