//! Axis scales: "nice" tick values (1, 2 or 5 times a power of ten) and how values
//! are written on an axis or in a tooltip.

/// How the values of a chart are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueFormat {
    /// Probabilities in [0, 1], written as percentages (`12.5%`).
    #[default]
    Percent,
    /// Plain numbers (`2.75`).
    Number,
}

impl ValueFormat {
    /// A tick label: as few digits as the tick step needs.
    pub(crate) fn tick(self, value: f64, step: f64) -> String {
        match self {
            ValueFormat::Percent => format!("{}%", fixed(value * 100.0, decimals(step * 100.0))),
            ValueFormat::Number => fixed(value, decimals(step)),
        }
    }

    /// A tooltip or cell value: enough digits to tell close values apart.
    pub(crate) fn exact(self, value: f64) -> String {
        match self {
            ValueFormat::Percent => {
                let p = value * 100.0;
                if p != 0.0 && p.abs() < 0.001 {
                    format!("{p:.2e}%")
                } else {
                    format!("{p:.3}%")
                }
            }
            ValueFormat::Number => {
                if value != 0.0 && (value.abs() >= 1e6 || value.abs() < 1e-3) {
                    format!("{value:.4e}")
                } else {
                    format!("{value:.4}")
                }
            }
        }
    }
}

/// `value` with `places` decimals.
fn fixed(value: f64, places: usize) -> String {
    let s = format!("{value:.places$}");
    if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
        s[1..].to_string()
    } else {
        s
    }
}

/// How many decimals a tick step needs (0 for 1, 2, 5, 10…; 1 for 0.5…).
fn decimals(step: f64) -> usize {
    if step <= 0.0 || !step.is_finite() {
        return 0;
    }
    let mut places = 0;
    let mut scaled = step;
    while places < 8 && (scaled - scaled.round()).abs() > 1e-9 * scaled.abs().max(1.0) {
        scaled *= 10.0;
        places += 1;
    }
    places
}

/// Evenly spaced tick values covering `[low, high]` with about `target` ticks; the
/// step is 1, 2 or 5 times a power of ten and the ends are rounded outwards to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ticks {
    pub low: f64,
    pub high: f64,
    pub step: f64,
}

impl Ticks {
    pub fn new(low: f64, high: f64, target: usize) -> Ticks {
        let (mut low, mut high) = if low.is_finite() && high.is_finite() {
            (low.min(high), low.max(high))
        } else {
            (0.0, 1.0)
        };
        if high - low < 1e-12 {
            // A flat series: show a unit around it.
            if low == 0.0 {
                high = 1.0;
            } else {
                let pad = low.abs() * 0.1;
                low -= pad;
                high += pad;
            }
        }
        let step = nice_step((high - low) / target.max(1) as f64);
        Ticks {
            low: (low / step + 1e-9).floor() * step,
            high: (high / step - 1e-9).ceil() * step,
            step,
        }
    }

    /// The tick values from `low` to `high`.
    pub fn values(&self) -> Vec<f64> {
        let n = ((self.high - self.low) / self.step).round() as usize;
        (0..=n).map(|i| self.low + i as f64 * self.step).collect()
    }
}

/// The smallest 1, 2 or 5 × 10^k at least `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    let fraction = raw / power;
    let nice = if fraction <= 1.0 + 1e-9 {
        1.0
    } else if fraction <= 2.0 + 1e-9 {
        2.0
    } else if fraction <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// Maps a value range onto a pixel range (the y axis runs upwards).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Linear {
    pub domain: (f64, f64),
    pub range: (f64, f64),
}

impl Linear {
    pub fn map(&self, value: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if (d1 - d0).abs() < f64::EPSILON {
            return r0;
        }
        let value = if value.is_finite() { value } else { d0 };
        r0 + (value - d0) / (d1 - d0) * (r1 - r0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(nice_step(0.013), 0.02);
        assert_eq!(nice_step(0.03), 0.05);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(1.0), 1.0);
    }

    #[test]
    fn ticks_cover_the_range() {
        let t = Ticks::new(0.0, 0.1157, 5);
        assert_eq!(t.step, 0.05);
        assert!((t.high - 0.15).abs() < 1e-12);
        assert_eq!(t.values().len(), 4);
        let flat = Ticks::new(0.0, 0.0, 5);
        assert_eq!(flat.high, 1.0);
    }

    #[test]
    fn labels_use_the_digits_the_step_needs() {
        assert_eq!(ValueFormat::Percent.tick(0.05, 0.05), "5%");
        assert_eq!(ValueFormat::Percent.tick(0.025, 0.005), "2.5%");
        assert_eq!(ValueFormat::Number.tick(2.5, 0.5), "2.5");
        assert_eq!(ValueFormat::Number.tick(-0.0, 1.0), "0");
        assert_eq!(ValueFormat::Percent.exact(0.128858), "12.886%");
        assert_eq!(ValueFormat::Percent.exact(1e-9), "1.00e-7%");
    }

    #[test]
    fn linear_maps_ends_to_ends() {
        let s = Linear {
            domain: (0.0, 1.0),
            range: (300.0, 100.0),
        };
        assert_eq!(s.map(0.0), 300.0);
        assert_eq!(s.map(1.0), 100.0);
        assert_eq!(s.map(0.5), 200.0);
    }
}
