//! Tables rendered as text, CSV, Markdown and JSON.
//! (These tests were inside `src/table/sheet.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::table::sheet::*;

fn sheet() -> Sheet {
    let mut g = Grid::new(
        Some("steps".into()),
        1,
        vec!["dim".into(), "n=1".into(), "n=2".into()],
    );
    g.rows.push(vec!["NOB".into(), "1/1".into(), "2/3*".into()]);
    g.rows
        .push(vec!["DT, x".into(), "10/10".into(), "2/2!".into()]);
    Sheet {
        title: "T".into(),
        legend: vec!["cells a/b".into()],
        grids: vec![g],
        notes: vec!["NOB n=2: printed 2, checked 3".into()],
    }
}

#[test]
fn text_aligns_values_and_keeps_marks_apart() {
    let t = sheet().render(Format::Text);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[3], "steps");
    assert_eq!(lines[4], "dim        n=1   n=2");
    assert_eq!(lines[5], "NOB        1/1   2/3*");
    assert_eq!(lines[6], "DT, x    10/10   2/2!");
}

#[test]
fn csv_has_one_line_per_cell_with_its_mark() {
    let c = sheet().render(Format::Csv);
    let lines: Vec<&str> = c.lines().collect();
    assert_eq!(lines[0], "grid,row,column,value,mark");
    assert_eq!(lines[2], "steps,NOB,n=2,2/3,*");
    assert_eq!(lines[3], "steps,\"DT, x\",n=1,10/10,");
    assert_eq!(lines[5], "note,,,\"NOB n=2: printed 2, checked 3\",");
}

#[test]
fn markdown_escapes_marks_and_right_aligns_values() {
    let m = sheet().render(Format::Markdown);
    assert!(m.contains("| dim | n=1 | n=2 |\n|---|---:|---:|\n"), "{m}");
    assert!(m.contains("| NOB | 1/1 | 2/3\\* |"), "{m}");
}

#[test]
fn json_is_the_sheet() {
    let j: serde_json::Value = serde_json::from_str(&sheet().render(Format::Json)).unwrap();
    assert_eq!(j["grids"][0]["rows"][0][2], "2/3*");
    assert_eq!(j["notes"][0], "NOB n=2: printed 2, checked 3");
}
