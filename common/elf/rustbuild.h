/*
 * rustbuild: how a Rust binary was built, as far as its environment
 * shows, for the advice that fits a binary found without debug info or
 * symbols: the Cargo profile cargo fg built (FG_CARGO_PROFILE, which
 * cargo-fg(1) sets), and a flag that drops the debug info or strips
 * the binary where Cargo takes rustc's flags from, first found in
 * Cargo's order: CARGO_ENCODED_RUSTFLAGS (0x1f between flags), else
 * RUSTFLAGS, else the rustflags of [target.*] or [build] in
 * .cargo/config.toml (or .cargo/config) from the current directory up,
 * then $CARGO_HOME's (~/.cargo). The flags: -C debuginfo=0 or none,
 * -C strip=debuginfo or symbols (the last of each kind counts, as for
 * rustc), and a linker's -s, -S, --strip-all or --strip-debug passed by
 * -C link-arg(s).
 *
 *	struct rustbuild rb;
 *	rustbuild_init(&rb, stripped);
 *	fix = rustbuild_fix(&rb, stripped);	("RUSTFLAGS sets ...")
 *	rustbuild_release(&rb);
 */
#ifndef FG_RUSTBUILD_H
#define FG_RUSTBUILD_H

struct rustbuild {
	char	*profile;	/* "release", or FG_CARGO_PROFILE's name */
	char	*section;	/* "[profile.release]" */
	char	*envvar;	/* "CARGO_PROFILE_RELEASE_DEBUG" */
	int	 cargo_fg;	/* built by cargo fg: FG_CARGO_PROFILE set */
	char	*cause;		/* "RUSTFLAGS sets -C strip=symbols", or
				   NULL: nothing found */
};

/*
 * Reads the environment and the config files for rb (a struct of the
 * caller's): the cause looked for is one that strips the symbols when
 * stripped is set, else one that drops the debug info (a strip of
 * symbols does both). A file that cannot be read is passed over.
 */
void	 rustbuild_init(struct rustbuild *rb, int stripped);

/* Frees what rb holds. */
void	 rustbuild_release(struct rustbuild *rb);

/*
 * The fix in a few words (the caller frees): the cause and to build
 * without it; else, under cargo fg, that something else in the build
 * undid its debug info; else the profile's setting, "build it with
 * [profile.release] debug = true (or CARGO_PROFILE_RELEASE_DEBUG=true)",
 * "and no strip" when stripped, and under cargo fg --dev the release
 * build too.
 */
char	*rustbuild_fix(const struct rustbuild *rb, int stripped);

/*
 * The flags of one rustflags list, flags[0..n) (borrowed): the index of
 * the flag that drops the debug info (or, with stripped, the symbols),
 * and its meaning written as "-C strip=symbols" in what (RUSTBUILD_WHAT
 * bytes); or -1. For the unit test and for each place rustbuild_init
 * looks.
 */
#define RUSTBUILD_WHAT	128
int	 rustbuild_flags(char *const *flags, int n, int stripped, char *what);

#endif
