//! The place of an element access as error records carry it (`Loc::record`).

use blazar_kir::Loc;

#[test]
fn a_place_round_trips_through_the_record() {
    for (line, col) in [(1, 1), (14, 23), (1_048_575, 4095), (7, 2100)] {
        let v = Loc::new(line, col).record(99);
        assert_eq!(Loc::from_record(v), Loc::new(line, col), "{line}:{col}");
    }
}

#[test]
fn a_plain_line_has_no_column() {
    assert_eq!(Loc::from_record(12), Loc::new(12, 0));
    assert_eq!(Loc::from_record(0), Loc::new(0, 0));
}

#[test]
fn an_unknown_place_keeps_the_statement_line() {
    assert_eq!(Loc::default().record(31), 31);
    assert_eq!(Loc::from_record(Loc::default().record(31)), Loc::new(31, 0));
}

#[test]
fn a_column_too_wide_keeps_the_line_alone() {
    let v = Loc::new(5, 4096).record(5);
    assert_eq!(Loc::from_record(v), Loc::new(5, 0));
}
