//! Unit tests of the native tier.
