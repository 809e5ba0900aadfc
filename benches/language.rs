//! Warm, in-process time per call of fairdice on the dice-language cases (criterion).
//!
//! Each case of `cases/language.tsv` is a group `language_<case>` with the function
//! `fairdice`: parse, estimate and evaluate the notation from its text, what users run.
//! icepool is absent on purpose (it caches results; the `compare` runner times it cold).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::{CaseTable, LANGUAGE};
use fairdice_bench::engines;

fn language(c: &mut Criterion) {
    let table = CaseTable::parse(LANGUAGE).expect("cases/language.tsv parses");
    for case in &table.cases {
        let mut group = c.benchmark_group(format!("language_{}", case.name));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        if let Some(expression) = case.expression(&table, "fairdice") {
            group.bench_function("fairdice", |b| {
                b.iter(|| engines::fairdice(black_box(expression)).expect(expression))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, language);
criterion_main!(benches);
