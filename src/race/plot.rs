//! SVG plots of a race: the cactus plot of SAT competitions (instances solved within a
//! time, one line per backend) and median time against board size on log axes.
//!
//! Written by hand rather than with a plotting crate: two small line charts do not
//! need font discovery or a raster stack, and the output must be byte-for-byte
//! deterministic so that reports can be diffed and committed.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{RunRow, stats};
use crate::escape::xml as escape;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 210.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;

/// Colour-blind-safe palette (Okabe–Ito), then greys.
const PALETTE: [&str; 10] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000",
    "#777777", "#bbbbbb",
];

#[derive(Debug, Clone, Copy)]
struct Axis {
    log: bool,
    min: f64,
    max: f64,
}

impl Axis {
    /// A log axis spanning whole decades around the data.
    fn log(values: impl Iterator<Item = f64>) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| *v > 0.0) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (1.0, 10.0);
        }
        let (lo, hi) = (lo.log10().floor(), hi.log10().ceil());
        Axis {
            log: true,
            min: 10f64.powf(lo),
            max: 10f64.powf(if hi > lo { hi } else { lo + 1.0 }),
        }
    }

    fn linear(max: f64) -> Axis {
        Axis {
            log: false,
            min: 0.0,
            max: max.max(1.0),
        }
    }

    /// Position in 0..=1 along the axis.
    fn fraction(&self, v: f64) -> f64 {
        if self.log {
            (v.max(self.min).log10() - self.min.log10()) / (self.max.log10() - self.min.log10())
        } else {
            (v - self.min) / (self.max - self.min)
        }
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (lo, hi) = (
                self.min.log10().round() as i32,
                self.max.log10().round() as i32,
            );
            (lo..=hi).map(|e| 10f64.powi(e)).collect()
        } else {
            let raw = self.max / 6.0;
            let magnitude = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .into_iter()
                .map(|m| m * magnitude)
                .find(|s| *s >= raw)
                .unwrap_or(raw);
            let mut ticks = Vec::new();
            let mut t = 0.0;
            while t <= self.max + 1e-9 {
                ticks.push(t);
                t += step;
            }
            ticks
        }
    }
}

fn label(v: f64) -> String {
    if v >= 1.0 && v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

struct Chart {
    x: Axis,
    y: Axis,
    svg: String,
}

impl Chart {
    fn new(title: &str, x: Axis, x_label: &str, y: Axis, y_label: &str) -> Chart {
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(
            svg,
            r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
            LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
            escape(title)
        );
        let mut chart = Chart { x, y, svg };
        chart.frame(x_label, y_label);
        chart
    }

    fn px(&self, v: f64) -> f64 {
        LEFT + self.x.fraction(v) * (WIDTH - LEFT - RIGHT)
    }

    fn py(&self, v: f64) -> f64 {
        HEIGHT - BOTTOM - self.y.fraction(v) * (HEIGHT - TOP - BOTTOM)
    }

    fn frame(&mut self, x_label: &str, y_label: &str) {
        let (x0, x1) = (LEFT, WIDTH - RIGHT);
        let (y0, y1) = (HEIGHT - BOTTOM, TOP);
        for t in self.x.ticks() {
            let x = self.px(t);
            let _ = writeln!(
                self.svg,
                r##"<line x1="{x:.1}" y1="{y0}" x2="{x:.1}" y2="{y1}" stroke="#e6e6e6"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                y0 + 16.0,
                label(t)
            );
        }
        for t in self.y.ticks() {
            let y = self.py(t);
            let _ = writeln!(
                self.svg,
                r##"<line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#e6e6e6"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                x0 - 6.0,
                y + 4.0,
                label(t)
            );
        }
        let _ = writeln!(
            self.svg,
            r##"<rect x="{x0}" y="{y1}" width="{:.1}" height="{:.1}" fill="none" stroke="#333333"/>"##,
            x1 - x0,
            y0 - y1
        );
        let _ = writeln!(
            self.svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            (x0 + x1) / 2.0,
            HEIGHT - 14.0,
            escape(x_label)
        );
        let _ = writeln!(
            self.svg,
            r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (y0 + y1) / 2.0,
            escape(y_label)
        );
    }

    fn series(&mut self, k: usize, name: &str, points: &[(f64, f64)]) {
        let colour = PALETTE[k % PALETTE.len()];
        let dash = if k >= PALETTE.len() {
            r#" stroke-dasharray="5 3""#
        } else {
            ""
        };
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
            .collect();
        if !path.is_empty() {
            let _ = writeln!(
                self.svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
                path.join(" ")
            );
            for p in &path {
                let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
                let _ = writeln!(
                    self.svg,
                    r#"<circle cx="{x}" cy="{y}" r="2.5" fill="{colour}"/>"#
                );
            }
        }
        let ly = TOP + 10.0 + 18.0 * k as f64;
        let lx = WIDTH - RIGHT + 14.0;
        let _ = writeln!(
            self.svg,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/><text x="{}" y="{:.1}">{}</text>"#,
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            escape(name)
        );
    }

    fn finish(mut self) -> String {
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

/// Backends with their rows, the strongest first (most solved, then the lower median
/// time, then by name), so that the legend reads as a ranking and the best lines get
/// the first, solid colours.
fn by_backend(rows: &[RunRow]) -> Vec<(&str, Vec<&RunRow>)> {
    let mut out: Vec<(&str, Vec<&RunRow>)> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|(name, _)| *name == r.backend) {
            Some((_, v)) => v.push(r),
            None => out.push((&r.backend, vec![r])),
        }
    }
    let rank = |rs: &[&RunRow]| {
        let times: Vec<f64> = rs.iter().filter_map(|r| r.time_ms).collect();
        (times.len(), stats::median(&times).unwrap_or(f64::INFINITY))
    };
    out.sort_by(|a, b| {
        let (sa, ma) = rank(&a.1);
        let (sb, mb) = rank(&b.1);
        sb.cmp(&sa).then(ma.total_cmp(&mb)).then(a.0.cmp(b.0))
    });
    out
}

/// Instances solved (x) within a time (y, log): each backend's solved times sorted,
/// the k-th point at (k, k-th time). A line further right solved more; lower is faster.
pub fn cactus_svg(rows: &[RunRow], title: &str) -> String {
    let series: Vec<(&str, Vec<f64>)> = by_backend(rows)
        .into_iter()
        .map(|(name, rs)| {
            let mut t: Vec<f64> = rs.iter().filter_map(|r| r.time_ms).collect();
            t.sort_by(f64::total_cmp);
            (name, t)
        })
        .collect();
    let most = series.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let x = Axis::linear(most as f64);
    let y = Axis::log(series.iter().flat_map(|(_, t)| t.iter().copied()));
    let mut chart = Chart::new(title, x, "instances solved", y, "time (ms, log)");
    for (k, (name, times)) in series.iter().enumerate() {
        let points: Vec<(f64, f64)> = times
            .iter()
            .enumerate()
            .map(|(i, &t)| ((i + 1) as f64, t))
            .collect();
        chart.series(k, name, &points);
    }
    chart.finish()
}

/// Median time over solved instances (y, log) against board cells (x, log), one line
/// per backend; a size where a backend solved nothing has no point.
pub fn size_svg(rows: &[RunRow], title: &str) -> String {
    let series: Vec<(&str, Vec<(f64, f64)>)> = by_backend(rows)
        .into_iter()
        .map(|(name, rs)| {
            let mut by_size: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
            for r in rs {
                let entry = by_size.entry(r.rows * r.cols).or_default();
                if let Some(t) = r.time_ms {
                    entry.push(t);
                }
            }
            let points = by_size
                .into_iter()
                .filter_map(|(cells, t)| stats::median(&t).map(|m| (cells as f64, m)))
                .collect();
            (name, points)
        })
        .collect();
    let x = Axis::log(series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0)));
    let y = Axis::log(series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1)));
    let mut chart = Chart::new(title, x, "board cells (log)", y, "median time (ms, log)");
    for (k, (name, points)) in series.iter().enumerate() {
        chart.series(k, name, points);
    }
    chart.finish()
}
