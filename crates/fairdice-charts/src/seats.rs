//! [`seats_chart`]: how each player's total grows over a match against their
//! fair share — the expected total after each roll as a line, one standard
//! deviation either side as a band, the fair share dashed — drawn from a seat
//! analysis (`fairdice seats --plot`, the web app's Seats page, the Python
//! package's notebook view).

use fairdice::analysis::Method;
use fairdice::analysis::seats::{SeatAnalysis, SeatFigures};

use crate::frame::{self, Area, Legend, PAD, TICK_SIZE};
use crate::palette::series_colour;
use crate::scale::{Linear, Ticks, ValueFormat};
use crate::svg::{Anchor, Svg, TextStyle, text_width};
use crate::{Chart, DEFAULT_HEIGHT, DEFAULT_WIDTH};

/// Markers with tooltips are drawn on every checkpoint of matches up to this long.
const MAX_MARKED_ROLLS: usize = 40;

/// How opaque a player's band is: light enough that four bands overlapping
/// still show the lines through them.
const BAND_OPACITY: f64 = 0.13;

/// Each player's total over a match: the chart of one scope of a seat analysis.
///
/// # Example
/// ```
/// use fairdice::Control;
/// use fairdice::analysis::seats::{self, Columns, Game, SeatOptions};
/// use fairdice::randomizer::Spec;
/// use fairdice_charts::{Chart, seats_chart};
///
/// let game = Game::new(
///     vec!["red".into(), "blue".into()],
///     vec![(6, vec![1, 0]), (8, vec![0, 1])],
///     false,
///     Columns::Players,
/// )?;
/// let dice = Spec::build("dice(base=2d6)")?;
/// let analysis = seats::analyze(&dice, &game, &SeatOptions::new(12), &Control::new())?;
/// let svg = seats_chart(&analysis).size(375, 340).to_svg();
/// assert!(svg.contains("red, roll 12"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct SeatsChart {
    title: String,
    estimated: bool,
    figures: SeatFigures,
    width: f64,
    height: f64,
}

/// The chart of `analysis` over every roll of its match.
pub fn seats_chart(analysis: &SeatAnalysis) -> SeatsChart {
    SeatsChart {
        title: format!("Totals over {} rolls", analysis.samples),
        estimated: matches!(analysis.method, Method::MonteCarlo { .. }),
        figures: analysis.all_rolls.clone(),
        width: DEFAULT_WIDTH,
        height: DEFAULT_HEIGHT,
    }
}

impl SeatsChart {
    /// The size in pixels (default 760 × 420; at least 240 × 200).
    #[must_use]
    pub fn size(mut self, width: u32, height: u32) -> SeatsChart {
        self.width = f64::from(width.max(240));
        self.height = f64::from(height.max(200));
        self
    }

    /// What the chart says, for screen readers: where each player ends.
    fn description(&self) -> String {
        let ends: Vec<String> = self
            .figures
            .players
            .iter()
            .map(|p| {
                format!(
                    "{} expects {:.2} (fair share {:.2}, sd {:.2})",
                    p.player,
                    p.expected_by_roll.last().copied().unwrap_or(0.0),
                    p.fair_share,
                    p.sd_by_roll.last().copied().unwrap_or(0.0),
                )
            })
            .collect();
        format!(
            "Line chart of each player's expected total after each roll{}, with a band of one standard deviation either side and the fair share dashed. After the last roll: {}.",
            if self.estimated {
                " (Monte Carlo estimate)"
            } else {
                ""
            },
            ends.join("; ")
        )
    }
}

/// The key to the line styles, on one line or, when narrow, two.
fn key_lines(width: f64) -> Vec<&'static str> {
    let one = "line: expected total · band: ± 1 sd · dashed: fair share";
    if text_width(one, TICK_SIZE) <= width - 2.0 * PAD {
        vec![one]
    } else {
        vec!["line: expected total · band: ± 1 sd", "dashed: fair share"]
    }
}

impl Chart for SeatsChart {
    fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    fn to_svg(&self) -> String {
        let mut svg = Svg::new(self.width, self.height, &self.title, &self.description());
        let mut top = frame::title(&mut svg, &self.title, self.width);
        let names = self.figures.players.iter().map(|p| p.player.as_str());
        let legend = Legend::series(names, top, self.width);
        legend.draw(&mut svg);
        top += legend.height;
        svg.begin_group("key");
        for line in key_lines(self.width) {
            svg.text(
                PAD,
                top + TICK_SIZE,
                line,
                TextStyle::muted(TICK_SIZE, Anchor::Start),
            );
            top += TICK_SIZE + 4.0;
        }
        svg.end_group();

        let rolls = &self.figures.rolls;
        let last = rolls.last().copied().unwrap_or(1).max(1) as f64;
        let high = self
            .figures
            .players
            .iter()
            .flat_map(|p| {
                let bands = p.expected_by_roll.iter().zip(&p.sd_by_roll);
                bands
                    .map(|(m, s)| m + s)
                    .chain(p.fair_share_by_roll.iter().copied())
            })
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let ticks = Ticks::new(0.0, if high > 0.0 { high } else { 1.0 }, 5);
        let plot = Area {
            left: frame::value_axis_width(&ticks, ValueFormat::Number, true),
            top: top + 8.0,
            right: self.width - PAD - 8.0,
            bottom: self.height - frame::bottom_space(true),
        };
        let y = frame::value_axis(&mut svg, plot, &ticks, ValueFormat::Number, "total");
        frame::category_axis_title(&mut svg, plot, self.height, "rolls");
        let x = Linear {
            domain: (0.0, last),
            range: (plot.left, plot.right),
        };
        roll_ticks(&mut svg, plot, x, last);

        // Every line starts at 0 before the first roll.
        let points = |values: &[f64]| -> Vec<(f64, f64)> {
            std::iter::once((x.map(0.0), y.map(0.0)))
                .chain(
                    rolls
                        .iter()
                        .zip(values)
                        .map(|(&t, &v)| (x.map(t as f64), y.map(v))),
                )
                .collect()
        };
        let marked = rolls.len() <= MAX_MARKED_ROLLS;
        for (i, player) in self.figures.players.iter().enumerate() {
            let colour = series_colour(i);
            svg.begin_group(&player.player);
            let upper: Vec<f64> = player
                .expected_by_roll
                .iter()
                .zip(&player.sd_by_roll)
                .map(|(m, s)| m + s)
                .collect();
            let lower: Vec<f64> = player
                .expected_by_roll
                .iter()
                .zip(&player.sd_by_roll)
                .map(|(m, s)| (m - s).max(0.0))
                .collect();
            let mut band = points(&upper);
            band.extend(points(&lower).into_iter().rev());
            svg.path(&path_of(&band, true), "none", 0.0, colour, BAND_OPACITY);
            svg.dashed_path(&path_of(&points(&player.fair_share_by_roll), false), colour);
            svg.path(
                &path_of(&points(&player.expected_by_roll), false),
                colour,
                2.0,
                "none",
                0.0,
            );
            if marked {
                for (k, &t) in rolls.iter().enumerate() {
                    let mean = player.expected_by_roll[k];
                    let error = player
                        .expected_by_roll_errors
                        .as_ref()
                        .map(|e| format!(" ± {:.3}", e[k]))
                        .unwrap_or_default();
                    let tip = format!(
                        "{}, roll {t}: expected {mean:.3}{error}, sd {:.3}, fair share {:.3}",
                        player.player, player.sd_by_roll[k], player.fair_share_by_roll[k]
                    );
                    svg.dot(x.map(t as f64), y.map(mean), 3.0, colour, &tip);
                }
            }
            svg.end_group();
        }
        svg.finish()
    }
}

/// An SVG path through `points`, closed when `closed`.
fn path_of(points: &[(f64, f64)], closed: bool) -> String {
    let mut d = String::with_capacity(points.len() * 16);
    for (k, (px, py)) in points.iter().enumerate() {
        d.push_str(&format!(
            "{}{px:.2} {py:.2} ",
            if k == 0 { 'M' } else { 'L' }
        ));
    }
    if closed {
        d.push('Z');
    }
    d.trim_end().to_string()
}

/// Labels rolls 0..=last at round intervals.
fn roll_ticks(svg: &mut Svg, plot: Area, x: Linear, last: f64) {
    let target = ((plot.width() / 70.0) as usize).clamp(2, 12);
    let ticks = Ticks::new(0.0, last, target);
    let step = ticks.step.max(1.0);
    let values: Vec<f64> = (0..)
        .map(|k| f64::from(k) * step)
        .take_while(|&v| v <= last + 1e-9)
        .collect();
    frame::step_axis(svg, plot, x, &values, "roll axis");
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice::Control;
    use fairdice::analysis::MethodChoice;
    use fairdice::analysis::seats::{self, Columns, Game, SeatOptions};
    use fairdice::randomizer::Spec;

    fn sevens() -> Game {
        Game::new(
            vec!["first".into(), "<second & co>".into()],
            vec![(7, vec![1, 0])],
            true,
            Columns::Roller,
        )
        .expect("valid")
    }

    #[test]
    fn each_player_has_a_band_a_dashed_fair_share_and_a_line() {
        let dice = Spec::build("dice(base=2d6)").expect("valid");
        let analysis = seats::analyze(&dice, &sevens(), &SeatOptions::new(20), &Control::new())
            .expect("small");
        let svg = seats_chart(&analysis).size(375, 340).to_svg();
        assert!(svg.contains(r#"width="375""#));
        // Names are escaped, in the legend, the groups and the tooltips.
        assert!(svg.contains("&lt;second &amp; co&gt;") && !svg.contains("<second"));
        assert_eq!(svg.matches("stroke-dasharray").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 2 * 20);
        // 10 own turns of 1/6: the first player's line ends at 10/6.
        assert!(svg.contains("first, roll 20: expected 1.667, sd 1.179, fair share 1.667"));
        assert!(svg.contains("After the last roll: first expects 1.67"));
        // Every drawn coordinate stays inside the chart.
        for number in svg
            .split(['"', ' ', 'M', 'L'])
            .filter_map(|s| s.parse::<f64>().ok())
        {
            assert!((-1.0..=760.0).contains(&number), "{number}");
        }
    }

    #[test]
    fn long_estimated_matches_are_drawn_without_markers_and_say_so() {
        let dice = Spec::build("fair(base=2d6, tightness=1)").expect("valid");
        let mut options = SeatOptions::new(500);
        options.method = MethodChoice::MonteCarlo { runs: 200, seed: 1 };
        let analysis = seats::analyze(&dice, &sevens(), &options, &Control::new()).expect("runs");
        let svg = seats_chart(&analysis).to_svg();
        assert_eq!(svg.matches("<circle").count(), 0);
        assert!(svg.contains("(Monte Carlo estimate)"));
        assert!(svg.contains(">500</text>"));
    }
}
