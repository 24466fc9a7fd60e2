//! An integration test that burns CPU in `grind`, for `cargo fg --test heavy`.

#[inline(never)]
fn grind(steps: u64) -> u64 {
    let mut x: u64 = 0x2545f4914f6cdd1d;
    for i in 0..steps {
        x = x.rotate_left(7) ^ i;
        x = x.wrapping_mul(0x9e3779b97f4a7c15);
    }
    x
}

#[test]
fn grinds() {
    assert_ne!(grind(300_000_000), 0);
}
