//! What one run prints and how it ends: the report, its exit status, and the cache of rendered
//! problems of batch mode.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use tcgen05::diagnostic::{Diagnostic, Severity};

use super::json::{problem_json, Obj};
use super::text::{problem_line, problems_compact, Style};

/// The exit status, ordered so that the worst one wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Every value valid.
    #[default]
    Valid,
    /// A value or configuration breaks a rule.
    Rule,
    /// Usage error or unreadable value.
    Usage,
}

impl Status {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Valid => 0,
            Status::Rule => 1,
            Status::Usage => 2,
        }
    }
}

/// How to print: JSON or text, and the colours of stdout and stderr.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// `--json`.
    pub json: bool,
    /// Colours of standard output.
    pub out: Style,
    /// Colours of standard error.
    pub err: Style,
}

/// What a single-value command prints and how it ends.
#[derive(Debug, Default)]
pub struct Report {
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
    /// Exit status.
    pub status: Status,
    /// Each recorded problem as JSON, with whether it is an error, for `--json` runs whose
    /// output would otherwise not carry them (see [`Report::json_failure`]).
    pub json_problems: Vec<(bool, String)>,
    /// Stderr lines shown and held back per (error?, field, source): a rule broken by
    /// thousands of elements prints [`REPEAT_CAP`] lines and then one count.
    pub repeats: std::collections::BTreeMap<(bool, &'static str, String), (usize, usize)>,
}

/// Stderr lines printed per (severity, field, source) before the rest are counted instead
/// (`--json` output still lists every problem).
pub const REPEAT_CAP: usize = 16;

impl Report {
    /// Records problems: one stderr line each; any error makes the status at least `Rule`.
    pub fn problems<D: Diagnostic>(&mut self, items: &[D], style: Style) -> fmt::Result {
        for d in items {
            let error = d.severity() == Severity::Error;
            let seen = self
                .repeats
                .entry((error, d.field(), d.source().to_string()))
                .or_insert((0, 0));
            if seen.0 < REPEAT_CAP {
                seen.0 += 1;
                problem_line(&mut self.err, d, style)?;
            } else {
                seen.1 += 1;
            }
            let mut j = String::new();
            problem_json(&mut j, d)?;
            self.json_problems
                .push((d.severity() == Severity::Error, j));
            if d.severity() == Severity::Error {
                self.status = self.status.max(Status::Rule);
            }
        }
        Ok(())
    }
}

impl Report {
    /// Appends one line per capped group: `error: and N more <field> problems like these
    /// (<source>)`.
    pub fn repeat_counts(&mut self, style: Style) -> fmt::Result {
        for ((error, field, source), (_, hidden)) in &self.repeats {
            if *hidden == 0 {
                continue;
            }
            if *error {
                write!(self.err, "{}error{}: ", style.red(), style.reset())?;
            } else {
                write!(self.err, "{}warning{}: ", style.yellow(), style.reset())?;
            }
            writeln!(
                self.err,
                "and {hidden} more {field} problems like these ({source})"
            )?;
        }
        self.repeats.clear();
        Ok(())
    }

    /// Makes a failed `--json` run print exactly one JSON object that carries its problems:
    /// with no output, `{"valid": false, "errors": [...], "warnings": [...]}`; with an object
    /// that has no `"errors"` key of its own, the same three keys appended to it. A run that
    /// passed, or whose object already lists its errors, is left as it is.
    pub fn json_failure(&mut self) -> fmt::Result {
        if self.status == Status::Valid || self.json_problems.is_empty() {
            return Ok(());
        }
        let body = self.out.trim_end();
        let mut tail = String::new();
        tail.push_str("\"valid\":false");
        for (k, error) in [("errors", true), ("warnings", false)] {
            write!(tail, ",\"{k}\":[")?;
            let mut first = true;
            for (e, j) in &self.json_problems {
                if *e != error {
                    continue;
                }
                if !first {
                    tail.push(',');
                }
                first = false;
                tail.push_str(j);
            }
            tail.push(']');
        }
        if body.is_empty() {
            self.out = format!("{{{tail}}}\n");
        } else if body.starts_with('{') && body.ends_with('}') && !body.contains("\"errors\"") {
            let inner = &body[..body.len() - 1];
            let sep = if inner.trim_end().ends_with('{') {
                ""
            } else {
                ","
            };
            self.out = format!("{inner}{sep}{tail}}}\n");
        }
        Ok(())
    }
}

/// Problems already rendered, so that batch mode formats each distinct problem once: random
/// input gives the same few hundred problems millions of times.
///
/// A problem is found either by a key, a number that only it has (see [`Cache::keyed`]), or by
/// the problem itself, hashed once per use. Either way a direct-mapped table of recent problems
/// answers most lookups with one comparison; the maps behind them hold every problem rendered
/// so far (up to [`CACHE_LIMIT`]), so two problems that share a slot cost a map lookup, never a
/// new rendering.
pub struct Cache<D> {
    /// Recent problems found by key, by the top bits of the key's hash: the key (0 for an empty
    /// slot) and the index in `rendered`.
    keyed: Vec<(u64, u32)>,
    /// Every key seen, with its index in `rendered`.
    by_key: HashMap<u64, u32, BuildHasherDefault<Fx>>,
    /// Recent problems by the top bits of their hash, each with its index in `rendered`.
    front: Vec<Option<(D, u32)>>,
    /// Every problem rendered, with its index in `rendered`.
    map: HashMap<D, u32, BuildHasherDefault<Fx>>,
    rendered: Vec<Rendered>,
}

impl<D> fmt::Debug for Cache<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache")
            .field("rendered", &self.rendered.len())
            .finish()
    }
}

/// A fast non-cryptographic hasher for the cache's small keys (the multiply-rotate scheme of
/// rustc's FxHasher); the keys are problems, never attacker-chosen in a way that matters here.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fx(u64);

/// The multiplier of [`Fx`].
const FX_K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Fx {
    #[inline(always)]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(FX_K);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline(always)]
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    #[inline(always)]
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    #[inline(always)]
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    #[inline(always)]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    #[inline(always)]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    #[inline(always)]
    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One problem as JSON (`{"field", "message", "source"}`) and as the tail of a compact line.
struct Rendered {
    error: bool,
    json: String,
    compact: String,
}

/// The most problems kept; a value space larger than this is rendered afresh after a reset.
const CACHE_LIMIT: usize = 1 << 14;

/// The most problems one value may add to the cache between two [`Cache::begin`] calls: the
/// cache is emptied there, never while a value's indices are held.
const VALUE_ROOM: usize = 1 << 10;

/// Bits of the hash that pick a slot of the direct-mapped tables.
const FRONT_BITS: u32 = 12;

impl<D: Diagnostic + Hash + Eq> Cache<D> {
    /// An empty cache (its tables are made on first use).
    pub fn new() -> Cache<D> {
        Cache {
            keyed: Vec::new(),
            by_key: HashMap::default(),
            front: Vec::new(),
            map: HashMap::default(),
            rendered: Vec::new(),
        }
    }

    /// Starts a value whose problems are looked up by index ([`Cache::keyed`],
    /// [`Cache::indexed`]): empties the cache when it is nearly full, so that the indices of one
    /// value stay good until the next call.
    pub fn begin(&mut self) {
        if self.rendered.len() + VALUE_ROOM > CACHE_LIMIT {
            self.clear();
        }
    }

    fn clear(&mut self) {
        self.map.clear();
        self.by_key.clear();
        self.rendered.clear();
        self.front.iter_mut().for_each(|s| *s = None);
        self.keyed.iter_mut().for_each(|s| *s = (0, 0));
    }

    /// The index of the rendering of the problem that `key` stands for: `key` is not 0, and
    /// two problems with the same key are equal. `make` builds the problem when the key is new
    /// (`None`, an error, when there is none).
    #[inline(always)]
    pub fn keyed(&mut self, key: u64, make: impl FnOnce() -> Option<D>) -> Result<u32, fmt::Error> {
        let slot = (key.wrapping_mul(FX_K) >> (64 - FRONT_BITS)) as usize;
        if let Some(&(k, i)) = self.keyed.get(slot) {
            if k == key {
                return Ok(i);
            }
        }
        self.keyed_slow(key, slot, make)
    }

    /// [`Cache::keyed`] for a key that is not in its first slot: in the second, in the map, or
    /// rendered now.
    #[inline(never)]
    fn keyed_slow(
        &mut self,
        key: u64,
        slot: usize,
        make: impl FnOnce() -> Option<D>,
    ) -> Result<u32, fmt::Error> {
        if let Some(&(k, i)) = self.keyed.get(slot ^ 1) {
            if k == key {
                return Ok(i);
            }
        }
        if self.keyed.is_empty() {
            self.keyed.resize(1 << FRONT_BITS, (0, 0));
        }
        let i = match self.by_key.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.index(&make().ok_or(fmt::Error)?)?;
                self.by_key.insert(key, i);
                i
            }
        };
        let free = [slot, slot ^ 1]
            .into_iter()
            .find(|&s| matches!(self.keyed.get(s), Some((0, _))))
            .unwrap_or(slot);
        if let Some(s) = self.keyed.get_mut(free) {
            *s = (key, i);
        }
        Ok(i)
    }

    /// The index of the rendering of `d`, made on its first use.
    #[inline(always)]
    pub fn indexed(&mut self, d: &D) -> Result<u32, fmt::Error> {
        let mut h = Fx::default();
        d.hash(&mut h);
        // The top bits: the multiply leaves the low ones poorly mixed.
        let slot = (h.finish() >> (64 - FRONT_BITS)) as usize;
        // Two slots per hash, side by side: two frequent problems that share one do not take
        // turns evicting each other.
        for s in [slot, slot ^ 1] {
            if let Some(Some((k, i))) = self.front.get(s) {
                if k == d {
                    return Ok(*i);
                }
            }
        }
        self.get_slow(d, slot)
    }

    /// The rendering of `d`, made on its first use.
    #[inline(always)]
    fn get(&mut self, d: &D) -> Result<&Rendered, fmt::Error> {
        let i = self.indexed(d)?;
        self.rendered.get(i as usize).ok_or(fmt::Error)
    }

    /// The index of `d` in `rendered`: from the map, or rendered now.
    fn index(&mut self, d: &D) -> Result<u32, fmt::Error> {
        if let Some(&i) = self.map.get(d) {
            return Ok(i);
        }
        let mut json = String::new();
        problem_json(&mut json, d)?;
        let mut compact = String::new();
        problems_compact(&mut compact, std::slice::from_ref(d))?;
        let i = u32::try_from(self.rendered.len()).map_err(|_| fmt::Error)?;
        self.rendered.push(Rendered {
            error: d.severity() == Severity::Error,
            json,
            compact,
        });
        self.map.insert(*d, i);
        Ok(i)
    }

    /// [`Cache::indexed`] for a problem not in its slot: from the map, or rendered now. A full
    /// cache is emptied first (after [`Cache::begin`] there is always room, so indices already
    /// given for the value stay good).
    #[inline(never)]
    fn get_slow(&mut self, d: &D, slot: usize) -> Result<u32, fmt::Error> {
        if self.rendered.len() >= CACHE_LIMIT {
            self.clear();
        }
        if self.front.is_empty() {
            self.front.resize_with(1 << FRONT_BITS, || None);
        }
        let i = self.index(d)?;
        let free = [slot, slot ^ 1]
            .into_iter()
            .find(|&s| matches!(self.front.get(s), Some(None)))
            .unwrap_or(slot);
        if let Some(s) = self.front.get_mut(free) {
            *s = Some((*d, i));
        }
        Ok(i)
    }

    /// The rendering at `i`, an index given since the last [`Cache::begin`].
    #[inline(always)]
    fn at(&self, i: u32) -> Result<&Rendered, fmt::Error> {
        self.rendered.get(i as usize).ok_or(fmt::Error)
    }

    /// True when one of the problems at `indices` is an error.
    pub fn any_error(&self, indices: &[u32]) -> Result<bool, fmt::Error> {
        for &i in indices {
            if self.at(i)?.error {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Writes `"errors": [...], "warnings": [...]` of the problems at `indices` (as
    /// [`problems_json2`] for one list).
    ///
    /// [`problems_json2`]: super::json::problems_json2
    pub fn json_indexed(&self, o: &mut Obj<'_>, indices: &[u32]) -> fmt::Result {
        let buf = o.key(key!("errors"));
        buf.push('[');
        let mut first = true;
        let mut warnings = false;
        for &i in indices {
            let r = self.at(i)?;
            if !r.error {
                warnings = true;
                continue;
            }
            if !first {
                buf.push(',');
            }
            first = false;
            buf.push_str(&r.json);
        }
        buf.push(']');
        let buf = o.key(key!("warnings"));
        buf.push('[');
        if warnings {
            let mut first = true;
            for &i in indices {
                let r = self.at(i)?;
                if r.error {
                    continue;
                }
                if !first {
                    buf.push(',');
                }
                first = false;
                buf.push_str(&r.json);
            }
        }
        buf.push(']');
        Ok(())
    }

    /// Writes ` | error: ...` for each problem at `indices` (as [`problems_compact`]).
    pub fn compact_indexed(&self, buf: &mut String, indices: &[u32]) -> fmt::Result {
        for &i in indices {
            buf.push_str(&self.at(i)?.compact);
        }
        Ok(())
    }

    /// Writes `"errors": [...], "warnings": [...]` (as [`problems_json2`] for one list).
    ///
    /// [`problems_json2`]: super::json::problems_json2
    pub fn json(&mut self, o: &mut Obj<'_>, items: &[D]) -> fmt::Result {
        let buf = o.key(key!("errors"));
        buf.push('[');
        let mut first = true;
        let mut warnings = false;
        for d in items {
            let r = self.get(d)?;
            if !r.error {
                warnings = true;
                continue;
            }
            if !first {
                buf.push(',');
            }
            first = false;
            buf.push_str(&r.json);
        }
        buf.push(']');
        let buf = o.key(key!("warnings"));
        buf.push('[');
        if warnings {
            let mut first = true;
            for d in items {
                let r = self.get(d)?;
                if r.error {
                    continue;
                }
                if !first {
                    buf.push(',');
                }
                first = false;
                buf.push_str(&r.json);
            }
        }
        buf.push(']');
        Ok(())
    }

    /// Writes ` | error: ...` for each problem (as [`problems_compact`]).
    pub fn compact(&mut self, buf: &mut String, items: &[D]) -> fmt::Result {
        for d in items {
            buf.push_str(&self.get(d)?.compact);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::problems_json2;
    use tcgen05::instruction_descriptor::{IdescError, IdescField};
    use tcgen05::shapes::MmaError;
    use tcgen05::{ElementType, Kind, Target};

    /// Problems of every kind the cache meets: with a key, and without one (a 64-bit value, an
    /// MMA problem), errors and warnings.
    fn sample() -> Vec<MmaError> {
        let mut v = Vec::new();
        for kind in Kind::ALL {
            for bit in [6, 23, 29, 31] {
                v.push(MmaError::Idesc(IdescError::ReservedBit { bit, kind }));
            }
            for code in 0..8 {
                v.push(MmaError::Idesc(IdescError::InvalidTypeCode {
                    field: IdescField::AType,
                    code,
                    kind,
                }));
            }
            v.push(MmaError::Idesc(IdescError::MNotInTable39 { m: 48, kind }));
            v.push(MmaError::Idesc(IdescError::SaturateNotI8 { kind }));
            v.push(MmaError::Idesc(IdescError::FieldNotInLayout {
                field: IdescField::SfaId,
                value: 1 << 40,
                kind,
            }));
            v.push(MmaError::KindNotOnTarget {
                kind,
                target: Target::DEFAULT,
            });
        }
        v.push(MmaError::Idesc(IdescError::MixedF16Bf16));
        v.push(MmaError::Idesc(IdescError::TransposeNotAllowed {
            field: IdescField::TransposeA,
            kind: Kind::F16,
            ty: ElementType::F16,
        }));
        for n in [0, 8, 264, 504] {
            v.push(MmaError::Idesc(IdescError::NOutOfRange { n }));
        }
        v
    }

    /// What the cache writes for `items`, and what rendering them afresh writes.
    fn both(
        cache: &mut Cache<MmaError>,
        items: &[MmaError],
    ) -> ((String, String), (String, String)) {
        let (mut json, mut compact) = (String::new(), String::new());
        let mut o = Obj::open(&mut json);
        cache.json(&mut o, items).expect("fmt");
        o.close();
        cache.compact(&mut compact, items).expect("fmt");
        let (mut json0, mut compact0) = (String::new(), String::new());
        let mut o = Obj::open(&mut json0);
        problems_json2::<MmaError, MmaError>(&mut o, &[], items).expect("fmt");
        o.close();
        problems_compact(&mut compact0, items).expect("fmt");
        ((json, compact), (json0, compact0))
    }

    #[test]
    fn repeated_problems_render_as_when_fresh() {
        let v = sample();
        let mut cache = Cache::new();
        // Windows over the sample in turn, so that each problem is met again in other company.
        for round in 0..3 {
            for start in 0..v.len() {
                let end = (start + 1 + (start * 7 + round) % 9).min(v.len());
                let items = v.get(start..end).expect("in range");
                let (got, want) = both(&mut cache, items);
                assert_eq!(got, want, "items {start}..{end}, round {round}");
            }
        }
    }

    #[test]
    fn a_full_cache_starts_again_and_still_renders_right() {
        let mut cache = Cache::new();
        // More distinct problems than the cache keeps and its table has slots, with and without
        // keys.
        for m in 0..(CACHE_LIMIT as u16 + 2000) {
            let items = [
                MmaError::Idesc(IdescError::MNotInTable39 { m, kind: Kind::F16 }),
                MmaError::Idesc(IdescError::FieldTooWide {
                    field: IdescField::N,
                    value: u64::from(m) << 20,
                }),
                MmaError::Idesc(IdescError::MixedF16Bf16),
            ];
            let (got, want) = both(&mut cache, &items);
            assert_eq!(got, want, "m = {m}");
        }
    }
}
