//! fib-tower, slow version: the textbook recursion, exponential in n.

use crate::FIB_MAX;

#[inline(never)]
fn fib_rec(n: i32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    fib_rec(n - 1) + fib_rec(n - 2)
}

/// fib(n), or `None` when n is outside 0..=FIB_MAX.
#[inline(never)]
pub fn fib(n: i32) -> Option<u64> {
    if !(0..=FIB_MAX).contains(&n) {
        return None;
    }
    Some(fib_rec(n))
}
