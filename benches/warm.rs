//! One criterion group per case of a notation case table: `<family>_<case>/fairdice`
//! parses, estimates and evaluates the case's text on every call, what users run.
//! Shared by the benches of notation case tables (`language.rs`, `mixed.rs`, and
//! `dice.rs`, which adds its other engines to each group).
//! icepool is absent on purpose: it caches results, so a warm loop would time a
//! dictionary look-up; the `compare` runner times it cold instead.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use fairdice_bench::cases::{Case, CaseTable};
use fairdice_bench::engines;

/// Benchmarks fairdice on every case of `table` (the text of a case table).
#[allow(dead_code)] // each bench that includes this file uses one of the two
pub fn notation_cases(c: &mut Criterion, family: &str, table: &str) {
    cases(c, family, table, |_, _, _| {});
}

/// [`notation_cases`], with `more` adding other engines to each case's group
/// (`dice.rs`: fairdice's core calls and xdy).
pub fn cases(
    c: &mut Criterion,
    family: &str,
    table: &str,
    mut more: impl FnMut(&mut BenchmarkGroup<'_, WallTime>, &CaseTable, &Case),
) {
    let table = CaseTable::parse(table).unwrap_or_else(|e| panic!("cases/{family}.tsv: {e}"));
    for case in &table.cases {
        let mut group = c.benchmark_group(format!("{family}_{}", case.name));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        if let Some(expression) = case.expression(&table, "fairdice") {
            group.bench_function("fairdice", |b| {
                b.iter(|| engines::fairdice(black_box(expression)).expect(expression))
            });
        }
        more(&mut group, &table, case);
        group.finish();
    }
}
