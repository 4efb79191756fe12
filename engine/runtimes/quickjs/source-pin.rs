// Empty: this crate only pins the QuickJS-ng source (see Cargo.toml).
