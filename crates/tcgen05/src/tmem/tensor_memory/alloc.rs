//! The column count of `tcgen05.alloc` / `tcgen05.dealloc` (PTX ISA 9.7.16.7.1; R24).

use super::error::TmemError;
use super::TMEM_COLUMNS;
use core::fmt;

/// A column count that `tcgen05.alloc` and `tcgen05.dealloc` accept: a power of two from 32 to
/// 512 (PTX ISA 9.7.16.7.1; rules.md R24). Allocation always covers all 128 lanes.
///
/// An `AllocColumns` always holds 32, 64, 128, 256 or 512.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(transparent)]
pub struct AllocColumns(u32);

impl AllocColumns {
    /// The smallest allocation (also the allocation unit): 32 columns.
    pub const MIN: AllocColumns = AllocColumns(32);
    /// The whole Tensor Memory of a CTA: 512 columns.
    pub const MAX: AllocColumns = AllocColumns(TMEM_COLUMNS);
    /// Every valid column count, smallest first.
    pub const ALL: [AllocColumns; 5] = [
        AllocColumns(32),
        AllocColumns(64),
        AllocColumns(128),
        AllocColumns(256),
        AllocColumns(512),
    ];

    /// Checks an `nCols` operand.
    ///
    /// # Errors
    /// [`TmemError::NColsOutOfRange`] below 32 or above 512 (0 included);
    /// [`TmemError::NColsNotPowerOfTwo`] for other values that are not powers of two.
    ///
    /// # Examples
    /// ```
    /// use tcgen05::tensor_memory::{AllocColumns, TmemError};
    /// assert_eq!(AllocColumns::try_new(256).map(AllocColumns::get), Ok(256));
    /// assert_eq!(AllocColumns::try_new(96), Err(TmemError::NColsNotPowerOfTwo { n_cols: 96 }));
    /// assert_eq!(AllocColumns::try_new(1024), Err(TmemError::NColsOutOfRange { n_cols: 1024 }));
    /// ```
    pub const fn try_new(n_cols: u32) -> Result<Self, TmemError> {
        if n_cols < Self::MIN.0 || n_cols > Self::MAX.0 {
            Err(TmemError::NColsOutOfRange { n_cols })
        } else if !n_cols.is_power_of_two() {
            Err(TmemError::NColsNotPowerOfTwo { n_cols })
        } else {
            Ok(Self(n_cols))
        }
    }

    /// A column count for constants.
    ///
    /// # Panics
    /// When [`AllocColumns::try_new`] fails; in a `const` item that is a compile error.
    #[must_use]
    pub const fn new(n_cols: u32) -> Self {
        match Self::try_new(n_cols) {
            Ok(n) => n,
            Err(_) => panic!(
                "tcgen05.alloc nCols must be a power of two from 32 to 512 (PTX ISA 9.7.16.7.1)"
            ),
        }
    }

    /// The number of columns.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for AllocColumns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} columns", self.0)
    }
}

/// Checks the `nCols` operand of `tcgen05.alloc` / `tcgen05.dealloc`; the same as
/// [`AllocColumns::try_new`].
///
/// # Errors
/// As [`AllocColumns::try_new`].
pub const fn validate_alloc_columns(n_cols: u32) -> Result<AllocColumns, TmemError> {
    AllocColumns::try_new(n_cols)
}
