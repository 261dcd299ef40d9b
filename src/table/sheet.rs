//! A table as the papers print it (a title, a legend, grids of cells and
//! notes), rendered as aligned text, Markdown, CSV or JSON
//! (`check table NAME --format ...`).
//!
//! A cell is its text as printed, a mark (`*` a difference, `!` a broken
//! claim) as its last character; text aligns the values and puts the
//! marks in a column of their own, the other formats split them off.

use serde::Serialize;
use std::fmt::Write;

/// How `check table` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text, as the papers print tables.
    Text,
    /// A Markdown table per grid.
    Markdown,
    /// One line per cell: grid, row, column, value, mark (notes as rows
    /// of their own), for scripts and spreadsheets.
    Csv,
    /// One JSON object: title, legend, grids, notes.
    Json,
}

impl Format {
    /// Names `--format` accepts.
    pub const NAMES: [&'static str; 4] = ["text", "markdown", "csv", "json"];

    /// The format called `name` (`--format`).
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "markdown" => Some(Format::Markdown),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let i = [Format::Text, Format::Markdown, Format::Csv, Format::Json]
            .iter()
            .position(|x| x == self)
            .expect("every format is named");
        f.write_str(Format::NAMES[i])
    }
}

/// A whole table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Sheet {
    /// The table's title.
    pub title: String,
    /// How to read a cell.
    pub legend: Vec<String>,
    /// The grids, each a header and rows.
    pub grids: Vec<Grid>,
    /// What the checks found beyond the cells: how they were measured,
    /// each difference and broken claim.
    pub notes: Vec<String>,
}

/// One grid: a header and rows; the first `labels` columns name the row.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Grid {
    /// The grid's own title, where a table has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How many leading columns name the row.
    pub labels: usize,
    /// The column headers.
    pub columns: Vec<String>,
    /// The rows, each a cell per column.
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the grid (a key to its cells).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// The cells are words, not values: aligned left, as labels are.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub prose: bool,
}

/// A cell's value and its mark.
fn split(cell: &str) -> (&str, &str) {
    match cell.strip_suffix(['*', '!']) {
        Some(value) => (value, &cell[value.len()..]),
        None => (cell, ""),
    }
}

impl Grid {
    /// A grid with `labels` label columns and the given header.
    pub fn new(title: Option<String>, labels: usize, columns: Vec<String>) -> Self {
        Grid {
            title,
            labels,
            columns,
            ..Default::default()
        }
    }

    fn text(&self, s: &mut String) {
        if let Some(t) = &self.title {
            let _ = writeln!(s, "{t}");
        }
        let marks = self
            .rows
            .iter()
            .flat_map(|r| r.iter().skip(self.labels))
            .any(|c| !split(c).1.is_empty());
        let width = |i: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| split(c).0.chars().count())
                .chain([self.columns[i].chars().count()])
                .max()
                .unwrap_or(0)
                + 2
        };
        let widths: Vec<usize> = (0..self.columns.len()).map(width).collect();
        let line = |s: &mut String, cells: &[String], header: bool| {
            for (i, c) in cells.iter().enumerate() {
                let w = widths.get(i).copied().unwrap_or(0);
                let (value, mark) = match header {
                    true => (c.as_str(), ""),
                    false => split(c),
                };
                match i < self.labels || self.prose {
                    true => {
                        let _ = write!(s, "{value:<w$}");
                    }
                    false => {
                        let _ = write!(s, "{value:>w$}");
                        if marks {
                            s.push_str(if mark.is_empty() { " " } else { mark });
                        }
                    }
                }
            }
            let trimmed = s.trim_end_matches(' ').len();
            s.truncate(trimmed);
            s.push('\n');
        };
        line(s, &self.columns, true);
        for r in &self.rows {
            line(s, r, false);
        }
        for a in &self.after {
            let _ = writeln!(s, "{a}");
        }
    }
}

/// Markdown's special characters in running text and cells, escaped.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '|' | '`' | '<' | '>' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A CSV field, quoted where it must be (RFC 4180).
fn csv(field: &str) -> String {
    match field.contains([',', '"', '\n']) {
        true => format!("\"{}\"", field.replace('"', "\"\"")),
        false => field.to_string(),
    }
}

impl Sheet {
    /// The table in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Csv => self.csv(),
            Format::Json => serde_json::to_string_pretty(self).expect("a table serializes") + "\n",
        }
    }

    fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.title);
        for l in &self.legend {
            let _ = writeln!(s, "{l}");
        }
        for g in &self.grids {
            s.push('\n');
            g.text(&mut s);
        }
        if !self.notes.is_empty() {
            s.push('\n');
        }
        for n in &self.notes {
            let _ = writeln!(s, "{n}");
        }
        s
    }

    fn markdown(&self) -> String {
        let mut s = format!("**{}**\n\n", md(&self.title));
        for l in &self.legend {
            let _ = writeln!(s, "{}  ", md(l));
        }
        for g in &self.grids {
            s.push('\n');
            if let Some(t) = &g.title {
                let _ = writeln!(s, "*{}*\n", md(t));
            }
            let row = |cells: &[String]| {
                let cells: Vec<String> = cells.iter().map(|c| md(c)).collect();
                format!("| {} |\n", cells.join(" | "))
            };
            s += &row(&g.columns);
            let rule: Vec<&str> = (0..g.columns.len())
                .map(|i| {
                    if i < g.labels || g.prose {
                        "---"
                    } else {
                        "---:"
                    }
                })
                .collect();
            let _ = writeln!(s, "|{}|", rule.join("|"));
            for r in &g.rows {
                s += &row(r);
            }
            if !g.after.is_empty() {
                s.push('\n');
            }
            for a in &g.after {
                let _ = writeln!(s, "{}  ", md(a.trim()));
            }
        }
        if !self.notes.is_empty() {
            s.push('\n');
        }
        for n in self.notes.iter().filter(|n| !n.trim().is_empty()) {
            let _ = writeln!(s, "- {}", md(n.trim()));
        }
        s
    }

    fn csv(&self) -> String {
        let mut s = String::from("grid,row,column,value,mark\n");
        for g in &self.grids {
            // Named by its title, else the sheet's (one grid), else its
            // label columns' header (`Table 1: time (slots)`).
            let grid = g.title.clone().unwrap_or_else(|| match self.grids.len() {
                1 => self.title.clone(),
                _ => g.columns[..g.labels].join(" "),
            });
            for r in &g.rows {
                let name = r[..g.labels.min(r.len())].join(" ");
                for (column, cell) in g.columns.iter().zip(r).skip(g.labels) {
                    if cell.is_empty() {
                        continue;
                    }
                    let (value, mark) = split(cell);
                    let _ = writeln!(
                        s,
                        "{},{},{},{},{}",
                        csv(&grid),
                        csv(&name),
                        csv(column),
                        csv(value.trim()),
                        mark
                    );
                }
            }
        }
        for n in self.notes.iter().filter(|n| !n.trim().is_empty()) {
            let _ = writeln!(s, "note,,,{},", csv(n.trim()));
        }
        s
    }
}
