//! `--csv`: a table of a report's JSON document, for spreadsheets. Columns are
//! the document's field names, in its order, so a CSV and a `--json` document of
//! the same run say the same thing under the same names.

use anyhow::Context;
use serde_json::{Map, Value};

/// Rows for a CSV file: a header and cells.
#[derive(Debug, Default, PartialEq)]
pub struct CsvTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl CsvTable {
    /// One row per element of `array`: an object's fields (nested objects as
    /// `outer.inner`; lists left to `--json`), or a plain value in a column named
    /// `value`. Every row starts with the `lead` cells, under their own names.
    pub fn of(array: &Value, lead: &[(&str, Value)]) -> CsvTable {
        let mut table = CsvTable::default();
        table.extend(array, lead);
        table
    }

    /// Appends the rows of `array` as [`CsvTable::of`] makes them; new columns
    /// join the header, and rows without them leave their cells empty.
    pub fn extend(&mut self, array: &Value, lead: &[(&str, Value)]) {
        for element in array.as_array().into_iter().flatten() {
            let mut fields = Map::new();
            for (name, value) in lead {
                fields.insert((*name).to_string(), value.clone());
            }
            match element {
                Value::Object(object) => flatten("", object, &mut fields),
                plain => {
                    fields.insert("value".into(), plain.clone());
                }
            }
            self.push(&fields);
        }
    }

    /// A grid (a list of lists of numbers) with its row and column labels: the
    /// first column is named `corner` and holds `rows[i]`, the others are named by
    /// `columns`.
    pub fn grid(grid: &Value, corner: &str, rows: &[String], columns: &[String]) -> CsvTable {
        let mut header = vec![corner.to_string()];
        header.extend(columns.iter().cloned());
        let rows = grid
            .as_array()
            .into_iter()
            .flatten()
            .zip(rows)
            .map(|(cells, label)| {
                std::iter::once(label.clone())
                    .chain(cells.as_array().into_iter().flatten().map(cell))
                    .collect()
            })
            .collect();
        CsvTable { header, rows }
    }

    fn push(&mut self, fields: &Map<String, Value>) {
        for name in fields.keys() {
            if !self.header.contains(name) {
                self.header.push(name.clone());
                for row in &mut self.rows {
                    row.push(String::new());
                }
            }
        }
        let row = self
            .header
            .iter()
            .map(|name| fields.get(name).map(cell).unwrap_or_default())
            .collect();
        self.rows.push(row);
    }

    /// The table as CSV text (RFC 4180 quoting).
    pub fn to_csv(&self) -> anyhow::Result<String> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&self.header)?;
        for row in &self.rows {
            writer.write_record(row)?;
        }
        let bytes = writer.into_inner().context("could not write the CSV")?;
        String::from_utf8(bytes).context("the CSV is not text")
    }
}

/// `object`'s fields into `out`, nested objects as `prefix.name`; lists are left
/// out (a cell holds one value).
fn flatten(prefix: &str, object: &Map<String, Value>, out: &mut Map<String, Value>) {
    for (name, value) in object {
        let name = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            Value::Object(inner) => flatten(&name, inner, out),
            Value::Array(_) => {}
            plain => {
                out.insert(name, plain.clone());
            }
        }
    }
}

/// A value as a CSV cell: strings without their JSON quotes, `null` empty.
fn cell(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The report's JSON document as a value, to take tables from.
pub fn document(report: &impl serde::Serialize) -> anyhow::Result<Value> {
    serde_json::to_value(report).context("could not make the report's document")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_become_rows_under_their_field_names() {
        let rows = json!([
            {"outcome": 1, "count": "5", "params": {"copies": 2}, "curve": [1, 2]},
            {"outcome": 2, "count": "7", "label": "T, \"quoted\""}
        ]);
        let table = CsvTable::of(&rows, &[("side", json!("a"))]);
        assert_eq!(
            table.to_csv().unwrap(),
            "side,outcome,count,params.copies,label\n\
             a,1,5,2,\n\
             a,2,7,,\"T, \"\"quoted\"\"\"\n"
        );
    }

    #[test]
    fn plain_values_and_grids() {
        let draws = CsvTable::of(&json!([3, 1]), &[]);
        assert_eq!(draws.to_csv().unwrap(), "value\n3\n1\n");
        let grid = CsvTable::grid(
            &json!([[0.5, 0.25], [0.75, 0.5]]),
            "attackers",
            &["1".into(), "2".into()],
            &["1".into(), "2".into()],
        );
        assert_eq!(
            grid.to_csv().unwrap(),
            "attackers,1,2\n1,0.5,0.25\n2,0.75,0.5\n"
        );
    }
}
