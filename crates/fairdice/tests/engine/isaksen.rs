//! The nine tables of Isaksen et al. (2016), all 78 rows, to the printed digits.
//!
//! The expected rows are the published values (with 8.1's 2d6 tie % as the exact
//! value rounds, 34.15, where the paper's Monte Carlo printed 34.155). The rows are
//! produced by the same function the `isaksen` example prints.

use fairdice::contest::isaksen::{HEADER, sections};

/// Per section: its tables, each a list of rows as printed.
const EXPECTED: &[(&str, &[&[&str]])] = &[
    (
        "3.1",
        &[
            &[
                "| 5d2          |     0.00 | 24.61 |     0.632 |",
                "| 5d4          |     0.00 | 11.97 |     0.384 |",
                "| 5d6          |     0.00 |  9.91 |     0.340 |",
                "| 5d8          |     0.00 |  9.15 |     0.323 |",
                "| 5d10         |     0.00 |  8.64 |     0.315 |",
            ],
            &[
                "| 1d6          |     0.00 | 16.67 |     1.095 |",
                "| 2d6          |     0.00 | 20.52 |     0.680 |",
                "| 3d6          |     0.00 | 13.91 |     0.504 |",
                "| 4d6          |     0.00 | 11.71 |     0.404 |",
                "| 5d6          |     0.00 |  9.91 |     0.340 |",
            ],
        ],
    ),
    (
        "3.2",
        &[
            &[
                "| 5d2          |     0.00 | 24.61 |     0.632 |",
                "| 5d4          |     0.00 | 19.32 |     0.516 |",
                "| 5d6          |     0.00 | 16.69 |     0.490 |",
                "| 5d8          |     0.00 | 14.49 |     0.478 |",
                "| 5d10         |     0.00 | 12.71 |     0.471 |",
            ],
            &[
                "| 1d6          |     0.00 | 16.67 |     1.095 |",
                "| 2d6          |     0.00 | 37.50 |     0.775 |",
                "| 3d6          |     0.00 | 17.82 |     0.632 |",
                "| 4d6          |     0.00 | 23.95 |     0.548 |",
                "| 5d6          |     0.00 | 16.69 |     0.490 |",
            ],
        ],
    ),
    (
        "5.1",
        &[&[
            "| 5d2          |    89.06 |  0.00 |     0.238 |",
            "| 5d4          |    54.79 |  0.00 |     0.271 |",
            "| 5d6          |    38.21 |  0.00 |     0.282 |",
            "| 5d8          |    29.13 |  0.00 |     0.287 |",
            "| 5d10         |    23.48 |  0.00 |     0.289 |",
        ]],
    ),
    (
        "5.2",
        &[&[
            "| 5d2          |    79.30 |  0.00 |     0.316 |",
            "| 5d4          |    44.96 |  0.00 |     0.400 |",
            "| 5d6          |    30.68 |  0.00 |     0.424 |",
            "| 5d8          |    23.19 |  0.00 |     0.434 |",
            "| 5d10         |    18.63 |  0.00 |     0.439 |",
        ]],
    ),
    (
        "6",
        &[
            &[
                "| 2d6 v 5d6    |   -35.61 | 32.37 |     0.608 |",
                "| 3d6 v 5d6    |   -23.63 |  0.00 |     0.451 |",
                "| 4d6 v 5d6    |     3.23 | 20.40 |     0.357 |",
                "| 5d6 v 5d6    |    38.21 |  0.00 |     0.282 |",
            ],
            &[
                "| 1d6 v 2d6    |   -15.74 |  0.00 |     1.000 |",
                "| 2d6 v 3d6    |    -7.91 | 33.58 |     0.613 |",
                "| 3d6 v 4d6    |    -2.80 |  0.00 |     0.450 |",
                "| 4d6 v 5d6    |     3.23 | 20.40 |     0.357 |",
            ],
        ],
    ),
    (
        "7.1",
        &[
            &[
                "| 5d6/0d8      |    38.21 |  0.00 |     0.282 |",
                "| 4d6/1d8      |    24.36 |  0.00 |     0.294 |",
                "| 3d6/2d8      |    10.80 |  0.00 |     0.302 |",
                "| 2d6/3d8      |    -2.24 |  0.00 |     0.305 |",
                "| 1d6/4d8      |   -14.56 |  0.00 |     0.305 |",
                "| 0d6/5d8      |   -25.98 |  0.00 |     0.301 |",
            ],
            &[
                "| 3d6/1d8/1d10 |     2.67 |  0.00 |     0.307 |",
                "| 2d6/3d8      |    -2.24 |  0.00 |     0.305 |",
                "| 3d6/2d10     |    -5.36 |  0.00 |     0.310 |",
            ],
        ],
    ),
    (
        "7.2",
        &[
            &[
                "| 5d6/0d8      |    30.68 |  0.00 |     0.424 |",
                "| 4d6/1d8      |    20.34 |  0.00 |     0.440 |",
                "| 3d6/2d8      |     9.48 |  0.00 |     0.450 |",
                "| 2d6/3d8      |    -1.61 |  0.00 |     0.452 |",
                "| 1d6/4d8      |   -12.60 |  0.00 |     0.446 |",
                "| 0d6/5d8      |   -23.19 |  0.00 |     0.434 |",
            ],
            &[
                "| 3d6/2d8      |     9.48 |  0.00 |     0.450 |",
                "| 3d6/1d8/1d10 |     2.97 |  0.00 |     0.456 |",
                "| 2d6/3d8      |    -1.61 |  0.00 |     0.452 |",
                "| 3d6/2d10     |    -3.73 |  0.00 |     0.459 |",
                "| 2d6/2d8/1d10 |    -8.26 |  0.00 |     0.453 |",
            ],
        ],
    ),
    (
        "8.1",
        &[
            &[
                "| 5d2          |     0.00 |  0.00 |     0.350 |",
                "| 5d4          |     0.00 |  0.00 |     0.311 |",
                "| 5d6          |     0.00 |  0.00 |     0.302 |",
                "| 5d8          |     0.00 |  0.00 |     0.298 |",
                "| 5d10         |     0.00 |  0.00 |     0.296 |",
            ],
            &[
                "| 1d6          |     0.00 |  0.00 |     1.000 |",
                "| 2d6          |     0.00 | 34.15 |     0.616 |",
                "| 3d6          |     0.00 |  0.00 |     0.453 |",
                "| 4d6          |     0.00 | 21.00 |     0.361 |",
                "| 5d6          |     0.00 |  0.00 |     0.302 |",
            ],
        ],
    ),
    (
        "8.2",
        &[
            &[
                "| 5d2          |     0.00 |  0.00 |     0.447 |",
                "| 5d4          |     0.00 |  0.00 |     0.447 |",
                "| 5d6          |     0.00 |  0.00 |     0.447 |",
                "| 5d8          |     0.00 |  0.00 |     0.447 |",
                "| 5d10         |     0.00 |  0.00 |     0.447 |",
            ],
            &[
                "| 1d6          |     0.00 |  0.00 |     1.000 |",
                "| 2d6          |     0.00 | 50.00 |     0.707 |",
                "| 3d6          |     0.00 |  0.00 |     0.577 |",
                "| 4d6          |     0.00 | 37.50 |     0.500 |",
                "| 5d6          |     0.00 |  0.00 |     0.447 |",
            ],
        ],
    ),
];

#[test]
fn every_row_of_every_table_matches_the_paper() {
    let sections = sections().unwrap();
    assert_eq!(sections.len(), EXPECTED.len());
    let mut rows = 0;
    for (section, (number, tables)) in sections.iter().zip(EXPECTED) {
        assert_eq!(section.number, *number);
        assert_eq!(section.tables.len(), tables.len(), "section {number}");
        for (table, expected) in section.tables.iter().zip(tables.iter()) {
            let got: Vec<String> = table.iter().map(|row| row.line()).collect();
            assert_eq!(got, *expected, "section {number}");
            rows += got.len();
        }
    }
    assert_eq!(rows, 78);
}

#[test]
fn the_exact_two_d6_tie_percentage_with_rerolled_ties() {
    let sections = sections().unwrap();
    let rerolled = sections.iter().find(|s| s.number == "8.1").unwrap();
    let two_d6 = &rerolled.tables[1][1];
    assert_eq!(two_d6.game, "2d6");
    assert_eq!(format!("{:.4}", two_d6.result.tie_percent()), "34.1463");
}

#[test]
fn sections_render_as_markdown_tables() {
    let sections = sections().unwrap();
    let text = sections[0].render();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("## 3.1 "));
    assert_eq!(lines[2], HEADER[0]);
    assert_eq!(lines[3], HEADER[1]);
    assert_eq!(lines[4], EXPECTED[0].1[0][0]);
    // Two tables, each a header and five rows, separated by a blank line.
    assert_eq!(lines.len(), 2 + 7 + 1 + 7);
}
