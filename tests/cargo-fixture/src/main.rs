//! spin [MILLIONS [EXIT]]: burn CPU in `crunch` for MILLIONS million steps
//! (default 100), print the result, and exit with status EXIT (default 0).
//! With the default feature, crunch is called through `wrapped`.

/// The hot function: the widest leaf of this program's flame graph.
#[inline(never)]
fn crunch(steps: u64) -> u64 {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for i in 0..steps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = x.wrapping_add(i);
    }
    x
}

/// With the default feature "wrapped", crunch is called through here.
#[cfg(feature = "wrapped")]
#[inline(never)]
fn wrapped(steps: u64) -> u64 {
    black_box(crunch(black_box(steps)))
}

/// What std::hint::black_box does (stable only since Rust 1.66; Debian 12
/// has 1.63): the volatile read of a copy hides the value from the
/// optimiser. Inlined, so that it adds no frame to the profile.
#[inline(always)]
#[cfg(feature = "wrapped")]
fn black_box<T>(x: T) -> T {
    let y = unsafe { std::ptr::read_volatile(&x) };
    std::mem::forget(x);
    y
}

fn main() {
    let mut args = std::env::args().skip(1);
    let millions: u64 = args
        .next()
        .map_or(100, |s| s.parse().expect("MILLIONS: a number"));
    let exit: i32 = args
        .next()
        .map_or(0, |s| s.parse().expect("EXIT: a number"));
    #[cfg(feature = "wrapped")]
    let x = wrapped(millions * 1_000_000);
    #[cfg(not(feature = "wrapped"))]
    let x = crunch(millions * 1_000_000);
    println!("spin: {:016x}", x);
    std::process::exit(exit);
}

#[cfg(test)]
mod tests {
    #[test]
    fn crunches() {
        assert_ne!(super::crunch(100_000_000), 0);
    }
}
