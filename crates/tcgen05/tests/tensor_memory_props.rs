//! Properties of Tensor Memory addresses, allocation sizes and data-movement shapes
//! (PTX ISA 9.7.16.1.1, 9.7.16.2.3, 9.7.16.7.1, 9.7.16.8; rules.md R23-R24).

use proptest::prelude::*;
use tcgen05::tensor_memory::{
    registers_per_thread, valid_nums, AllocColumns, CpMulticast, CpShape, DataMovementShape,
    LdStShape, Num, TmemAddress, TmemAddressFields, TmemError, MAX_REGISTERS_PER_THREAD,
    TMEM_COLUMNS, TMEM_LANES,
};
use tcgen05::Diagnostic;

proptest! {
    /// Every lane and column in range packs to lane << 16 | column and unpacks to itself.
    #[test]
    fn address_round_trip(lane in 0..TMEM_LANES, column in 0..TMEM_COLUMNS) {
        let a = TmemAddress::try_new(lane, column).expect("must succeed");
        prop_assert_eq!(a.bits(), (lane << 16) | column);
        prop_assert_eq!((a.lane(), a.column()), (lane, column));
        prop_assert_eq!(TmemAddress::from_bits(a.bits()), Ok(a));
        prop_assert_eq!(a.fields().encode(), Ok(a));
        prop_assert_eq!(TmemAddressFields::from_bits(a.bits()), a.fields());
        prop_assert!(TmemAddress::validate(a.bits()).is_empty());
    }

    /// Any raw 32-bit value decodes exactly when its lane is below 128 and its column below 512,
    /// re-encodes to the same bits, and otherwise lists one error per bad field.
    #[test]
    fn any_raw_value(raw in any::<u32>()) {
        let lane = raw >> 16;
        let column = raw & 0xffff;
        let valid = lane < TMEM_LANES && column < TMEM_COLUMNS;
        match TmemAddress::from_bits(raw) {
            Ok(a) => {
                prop_assert!(valid);
                prop_assert_eq!(a.bits(), raw);
            }
            Err(e) => {
                prop_assert!(!valid);
                let d = TmemAddress::validate(raw);
                prop_assert_eq!(d.len(), usize::from(lane >= TMEM_LANES) + usize::from(column >= TMEM_COLUMNS));
                prop_assert_eq!(d.get(0), Some(e));
                prop_assert!(!d.overflowed());
            }
        }
    }

    /// try_new never panics and fails exactly outside 128 x 512, naming the first bad field.
    #[test]
    fn try_new_any_input(lane in any::<u32>(), column in any::<u32>()) {
        match TmemAddress::try_new(lane, column) {
            Ok(a) => prop_assert_eq!((a.lane(), a.column()), (lane, column)),
            Err(e) if lane >= TMEM_LANES => {
                prop_assert_eq!(e, TmemError::LaneOutOfRange { lane: u64::from(lane) });
                prop_assert_eq!(e.field(), "lane");
            }
            Err(e) => {
                prop_assert!(column >= TMEM_COLUMNS);
                prop_assert_eq!(e, TmemError::ColumnOutOfRange { column: u64::from(column) });
                prop_assert_eq!(e.field(), "column");
            }
        }
    }

    /// offset adds, or names the field that left the CTA, for any input.
    #[test]
    fn offset_any_input(lane in 0..TMEM_LANES, column in 0..TMEM_COLUMNS,
                        dl in any::<u32>(), dc in any::<u32>()) {
        let a = TmemAddress::new(lane, column);
        let l = u64::from(lane) + u64::from(dl);
        let c = u64::from(column) + u64::from(dc);
        match a.offset(dl, dc) {
            Ok(b) => prop_assert_eq!((u64::from(b.lane()), u64::from(b.column())), (l, c)),
            Err(TmemError::LaneOutOfRange { lane }) => {
                prop_assert_eq!(lane, l);
                prop_assert!(l >= u64::from(TMEM_LANES));
            }
            Err(TmemError::ColumnOutOfRange { column }) => {
                prop_assert_eq!(column, c);
                prop_assert!(l < u64::from(TMEM_LANES) && c >= u64::from(TMEM_COLUMNS));
            }
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }

    /// Exactly one warp of every four may access a lane: warp w owns lanes 32(w%4)..32(w%4)+31.
    #[test]
    fn quadrant_rule(lane in 0..TMEM_LANES, warp in any::<u32>()) {
        let a = TmemAddress::new(lane, 0);
        prop_assert_eq!(a.accessible_by_warp(warp), lane / 32 == warp % 4);
        let owners = (0..4u32).filter(|w| a.accessible_by_warp(warp.wrapping_add(*w))).count();
        prop_assert_eq!(owners, 1);
    }

    /// AllocColumns accepts exactly the powers of two from 32 to 512.
    #[test]
    fn alloc_any_input(n in any::<u32>()) {
        let ok = n.is_power_of_two() && (32..=512).contains(&n);
        prop_assert_eq!(AllocColumns::try_new(n).is_ok(), ok);
        if let Err(e) = AllocColumns::try_new(n) {
            prop_assert_eq!(e.value(), u64::from(n));
        }
    }

    /// A .num is valid for a shape exactly when its register vector fits in 128 registers, and
    /// the count is registers-at-x1 times .num.
    #[test]
    fn registers_scale_with_num(si in 0..5usize, ni in 0..8usize) {
        let shape = LdStShape::ALL[si];
        let num = Num::ALL[ni];
        let want = u32::from(shape.registers_per_num()) * u32::from(num.count());
        match registers_per_thread(shape, num) {
            Ok(r) => {
                prop_assert_eq!(u32::from(r), want);
                prop_assert!(r <= MAX_REGISTERS_PER_THREAD);
                prop_assert!(valid_nums(shape).contains(&num));
            }
            Err(e) => {
                prop_assert!(want > u32::from(MAX_REGISTERS_PER_THREAD));
                prop_assert!(!valid_nums(shape).contains(&num));
                prop_assert_eq!(e.field(), "num");
            }
        }
    }

    /// Shape and qualifier names never panic, and whatever parses prints back to itself.
    #[test]
    fn names_never_panic(s in "\\.?[0-9x.:_a-z]{0,16}") {
        if let Ok(shape) = DataMovementShape::from_name(&s) {
            prop_assert_eq!(shape.name().trim_start_matches('.'), s.trim_start_matches('.'));
        }
        let _ = LdStShape::from_name(&s);
        if let Ok(c) = CpShape::from_name(&s) {
            prop_assert_eq!(c.name().trim_start_matches('.'), s.trim_start_matches('.'));
        }
        if let Ok(n) = Num::from_name(&s) {
            prop_assert_eq!(n.name().trim_start_matches('.'), s.trim_start_matches('.'));
        }
        let _ = CpMulticast::from_name(&s);
    }
}
