//! The `approximated` member of `tcgen05 run --json`: which approximate instructions the run
//! computed as correctly rounded (`--approx`), how many lanes, and the H100's measured distance
//! from that result (`tcgen05_run::approx::FORMS`, from hw/approx).

use std::fmt::{self, Write};
use tcgen05_run::approx::{Counts, FORMS};

/// Appends `,"approximated":[...]` (one object per form used; empty when none was).
pub(crate) fn json(out: &mut String, c: &Counts) -> fmt::Result {
    out.push_str(",\"approximated\":[");
    let mut first = true;
    for (n, f) in c.lanes.iter().zip(FORMS.iter()) {
        if *n == 0 {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        write!(
            out,
            "{{\"op\":\"{}\",\"as\":\"rn\",\"flag\":\"{}\",\"lanes\":{n},\"h100_inputs\":{},\"h100_differing\":{},\"h100_max_ulp\":{}}}",
            f.form, f.flag, f.measured.0, f.measured.1, f.max_ulp
        )?;
    }
    out.push(']');
    Ok(())
}
