//! fib-tower, fixed version: n additions.

use crate::FIB_MAX;

/// fib(n), or `None` when n is outside 0..=FIB_MAX.
#[inline(never)]
pub fn fib(n: i32) -> Option<u64> {
    if !(0..=FIB_MAX).contains(&n) {
        return None;
    }
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    Some(a)
}
