//! [`Text`]: the string a [`crate::Value::Str`] holds.
//!
//! Strings are values: copying one shares its text by reference, and no operation
//! changes a text another value can see. A text that only one value holds may grow in
//! place ([`Text::get_mut`]): `s = strcat(s, t)` in a loop then appends `t` to `s`'s
//! buffer (whose capacity doubles as it fills) instead of copying the whole string each
//! time, which made building a string of n pieces cost n² bytes copied.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// An immutable string shared by reference (see the module's comment).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Rc<String>);

impl Text {
    pub fn new(s: &str) -> Text {
        Text(Rc::new(s.to_owned()))
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The string to change in place, when no other value shares it (`None` when one
    /// does: a change would be seen through it).
    #[inline]
    pub fn get_mut(&mut self) -> Option<&mut String> {
        Rc::get_mut(&mut self.0)
    }

    /// Whether `a` and `b` share one text.
    #[inline]
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }
}

impl Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Rc::new(s))
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn grows_in_place_only_when_unshared() {
        let mut a = Text::from("ab");
        a.get_mut().expect("one holder").push_str("cd");
        assert_eq!(a, "abcd");
        let b = a.clone();
        assert!(a.get_mut().is_none(), "b would see the change");
        assert!(Text::ptr_eq(&a, &b));
        drop(b);
        a.get_mut().expect("one holder again").push('e');
        assert_eq!(&*a, "abcde");
        assert_eq!(format!("{a:?} {a}"), "\"abcde\" abcde");
    }
}
