//! The floor `fairdice sample` is measured against: `bare_draws N` draws N rolls of
//! a d6 from the same generator (xoshiro256++, seeded as fairdice seeds it, an
//! unbiased `below(6)`) and prints them on one line as the command does, through
//! a buffered standard output, with nothing else: no spec, no randomizer, no
//! request, no limits.

use std::io::Write as _;

fn main() -> std::io::Result<()> {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let mut generator = fairdice::rng::seeded(1);
    let texts = ["1", "2", "3", "4", "5", "6"];
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    for drawn in 0..count {
        if drawn > 0 {
            out.write_all(b" ")?;
        }
        let face = fairdice::rng::below(&mut generator, 6) as usize;
        out.write_all(texts[face].as_bytes())?;
    }
    writeln!(out)?;
    out.flush()
}
