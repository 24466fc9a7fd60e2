//! The library of the fixture crate: its unit tests are what
//! `cargo fg --unit-test` profiles.

/// Burns CPU for `steps` steps.
#[inline(never)]
pub fn knead(steps: u64) -> u64 {
    let mut x: u64 = 0x853c49e6748fea9b;
    for i in 0..steps {
        x = x.rotate_left(5) ^ i;
        x = x.wrapping_mul(0xda942042e4dd58b5);
    }
    x
}

/// Burns CPU, differently, for `steps` steps.
#[inline(never)]
pub fn stir(steps: u64) -> u64 {
    let mut x: u64 = 1;
    for i in 0..steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i | 1);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavy_test() {
        assert_ne!(knead(200_000_000), 0);
    }

    #[test]
    fn other_test() {
        assert_ne!(stir(200_000_000), 0);
    }
}
