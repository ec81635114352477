//! Shared references to arrays, with their own shape: `B = A` and `reshape` views.
//!
//! An [`ArrayRef`] is what a variable holds: the shared [`Store`] of the elements (host
//! copy, device copy, residency), the variable's access mode, and, for a view made by
//! `reshape`, its own dims. All references to one store see the same elements in the
//! same row-major order; only their shapes differ, so a reshape costs nothing and a
//! write through any of them is seen through all the others.
//!
//! The store's host `Array` keeps the dims the elements were made with. Host code reads
//! through [`ArrayRef::borrow`], whose guard answers [`ArrRead::dims`] and
//! [`ArrRead::buf`] without copying; code that needs an `&Array` (most builtins)
//! dereferences the guard, which for a view of another shape builds the `Array` of the
//! view's dims once per guard (a copy of the elements, read only: the guard keeps the
//! store borrowed, so nothing writes meanwhile). Writes go through
//! [`ArrayRef::borrow_mut`], whose guard holds the store exclusively and sets the host
//! array's dims to the view's until it is dropped: no copy, and nobody else can see the
//! swapped dims. No buffer ever has two owners.

use crate::array::{Array, Buffer, ElemType};
use crate::store::Store;
use crate::value::Value;
use std::cell::{BorrowError, BorrowMutError, OnceCell, Ref, RefMut};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

pub use crate::array::{Access, Mode};

/// A shared reference to an array plus the access mode of the variable holding it,
/// and the reference's own dims when it is a reshaped view of the store's elements.
#[derive(Clone, Debug)]
pub struct ArrayRef {
    pub data: Rc<Store>,
    pub mode: Access,
    /// The view's dims, when they differ from the store's (same element count). A thin
    /// pointer, so that a `Value` stays as small as it was.
    view: Option<Rc<Vec<usize>>>,
}

/// The shape and element type of a reference, read without synchronising (see
/// [`ArrayRef::meta`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    pub dims: Vec<usize>,
    elem: ElemType,
}

impl Meta {
    pub fn elem(&self) -> ElemType {
        self.elem
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    pub fn len(&self) -> usize {
        self.dims.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_cell(&self) -> bool {
        self.elem == ElemType::Cell
    }

    /// `size(x)`: the dims, with a vec reported as `[1, N]`.
    pub fn size(&self) -> Vec<usize> {
        if self.dims.len() == 1 {
            vec![1, self.dims[0]]
        } else {
            self.dims.clone()
        }
    }
}

impl ArrayRef {
    pub fn new(a: Array) -> ArrayRef {
        ArrayRef::of(Rc::new(Store::new(a)), Access::default())
    }

    /// A reference to `store` with the store's own shape.
    pub fn of(store: Rc<Store>, mode: Access) -> ArrayRef {
        ArrayRef {
            data: store,
            mode,
            view: None,
        }
    }

    /// An array of zeros made where it is first used (see [`Residency::Zero`]).
    ///
    /// [`Residency::Zero`]: crate::Residency::Zero
    pub fn zeros(dims: Vec<usize>, elem: ElemType) -> ArrayRef {
        ArrayRef::of(Rc::new(Store::new_zeros(dims, elem)), Access::default())
    }

    /// The same elements and shape under another access mode (`C : mat'unchecked = A`).
    pub fn with_mode(&self, mode: Access) -> ArrayRef {
        ArrayRef {
            mode,
            ..self.clone()
        }
    }

    /// A view of the same elements with `dims` (whose product must be the element
    /// count; `reshape` checks it) and the default access mode. O(1): nothing is copied,
    /// on the host or on a device.
    pub fn reshaped(&self, dims: Vec<usize>) -> ArrayRef {
        let same = self.data.meta_host().map_or(false, |m| m.dims == dims);
        ArrayRef {
            data: self.data.clone(),
            mode: Access::default(),
            view: (!same).then(|| Rc::new(dims)),
        }
    }

    /// The view's dims when this reference is a view of another shape than its store.
    pub fn view_dims(&self) -> Option<&[usize]> {
        self.view.as_deref().map(Vec::as_slice)
    }

    /// Whether two references name the same elements (the same store), whatever their
    /// shapes.
    pub fn same_store(&self, other: &ArrayRef) -> bool {
        Rc::ptr_eq(&self.data, &other.data)
    }

    /// Whether two references name the same elements with the same shape.
    pub fn same_view(&self, other: &ArrayRef) -> bool {
        self.same_store(other)
            && (self.view == other.view
                || matches!((self.meta(), other.meta()), (Ok(a), Ok(b)) if a.dims == b.dims))
    }

    /// The reference's shape and element type without synchronising: for `size`,
    /// `type` and launch signatures, which must not pull device data back to the host.
    pub fn meta(&self) -> Result<Meta, BorrowError> {
        let m = self.data.meta_host()?;
        Ok(Meta {
            dims: self
                .view_dims()
                .map_or_else(|| m.dims.clone(), <[usize]>::to_vec),
            elem: m.elem(),
        })
    }

    /// Reads the array on the host (downloading newer device data first).
    pub fn borrow(&self) -> ArrRead<'_> {
        ArrRead::new(self.data.read_host(), self.view_dims())
    }

    pub fn try_borrow(&self) -> Result<ArrRead<'_>, BorrowError> {
        Ok(ArrRead::new(self.data.try_read_host()?, self.view_dims()))
    }

    /// Writes the array on the host: the device copy becomes stale.
    pub fn borrow_mut(&self) -> ArrWrite<'_> {
        ArrWrite::new(self.data.write_host(), self.view_dims())
    }

    pub fn try_borrow_mut(&self) -> Result<ArrWrite<'_>, BorrowMutError> {
        Ok(ArrWrite::new(self.data.try_write_host()?, self.view_dims()))
    }
}

/// A host read of an array through a reference (see the module documentation).
pub struct ArrRead<'a> {
    host: Ref<'a, Array>,
    view: Option<&'a [usize]>,
    copy: OnceCell<Array>,
}

impl<'a> ArrRead<'a> {
    fn new(host: Ref<'a, Array>, view: Option<&'a [usize]>) -> ArrRead<'a> {
        ArrRead {
            host,
            view,
            copy: OnceCell::new(),
        }
    }

    /// The reference's dims.
    pub fn dims(&self) -> &[usize] {
        self.view.unwrap_or(&self.host.dims)
    }

    /// The elements in row-major order (no copy, views included).
    pub fn buf(&self) -> &Buffer {
        &self.host.buf
    }

    pub fn elem(&self) -> ElemType {
        self.host.elem()
    }

    pub fn len(&self) -> usize {
        self.dims().iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.host.buf.is_empty()
    }

    pub fn rank(&self) -> usize {
        self.dims().len()
    }

    pub fn is_cell(&self) -> bool {
        self.host.is_cell()
    }

    /// `size(x)`: the dims, with a vec reported as `[1, N]`.
    pub fn size(&self) -> Vec<usize> {
        match self.dims() {
            [n] => vec![1, *n],
            d => d.to_vec(),
        }
    }

    #[inline]
    pub fn get_f64(&self, i: usize) -> f64 {
        self.host.buf.get_f64(i)
    }

    #[inline]
    pub fn get_c(&self, i: usize) -> num_complex::Complex64 {
        self.host.buf.get_c(i)
    }

    pub fn get_value(&self, i: usize) -> Value {
        self.host.buf.get_value(i)
    }

    /// All elements as reals.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        self.host.to_f64_vec()
    }

    pub fn to_c_vec(&self) -> Vec<num_complex::Complex64> {
        self.host.to_c_vec()
    }

    /// An owned copy with the reference's dims.
    pub fn to_array(&self) -> Array {
        Array {
            dims: self.dims().to_vec(),
            buf: self.host.buf.clone(),
        }
    }
}

impl Deref for ArrRead<'_> {
    type Target = Array;

    fn deref(&self) -> &Array {
        match self.view {
            None => &self.host,
            Some(_) => self.copy.get_or_init(|| self.to_array()),
        }
    }
}

/// A host write of an array through a reference: the store's host array, with the
/// reference's dims while the guard lives.
pub struct ArrWrite<'a> {
    host: RefMut<'a, Array>,
    saved: Option<Vec<usize>>,
}

impl<'a> ArrWrite<'a> {
    fn new(mut host: RefMut<'a, Array>, view: Option<&'a [usize]>) -> ArrWrite<'a> {
        let saved = view.map(|d| std::mem::replace(&mut host.dims, d.to_vec()));
        ArrWrite { host, saved }
    }
}

impl Deref for ArrWrite<'_> {
    type Target = Array;

    fn deref(&self) -> &Array {
        &self.host
    }
}

impl DerefMut for ArrWrite<'_> {
    fn deref_mut(&mut self) -> &mut Array {
        &mut self.host
    }
}

impl Drop for ArrWrite<'_> {
    fn drop(&mut self) {
        if let Some(dims) = self.saved.take() {
            debug_assert_eq!(
                dims.iter().product::<usize>(),
                self.host.dims.iter().product::<usize>(),
                "a write through a view changed the element count"
            );
            self.host.dims = dims;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iota(dims: Vec<usize>) -> ArrayRef {
        let n = dims.iter().product::<usize>();
        ArrayRef::new(Array::new(
            dims,
            Buffer::F64((0..n).map(|i| i as f64).collect()),
        ))
    }

    #[test]
    fn a_view_shares_elements_and_keeps_its_own_dims() {
        let x = iota(vec![2, 3]);
        let y = x.reshaped(vec![6]);
        assert_eq!(y.borrow().dims(), &[6]);
        assert_eq!(y.meta().unwrap().dims, vec![6]);
        assert_eq!(x.borrow().dims(), &[2, 3]);
        y.borrow_mut().buf.set_f64(4, 40.0);
        assert_eq!(x.borrow().get_f64(4), 40.0);
        assert_eq!(
            x.borrow().dims,
            vec![2, 3],
            "the write restored the store's dims"
        );
        x.borrow_mut().buf.set_f64(0, 7.0);
        let r = y.borrow();
        assert_eq!(r.dims, vec![6], "an Array of the view's dims");
        assert_eq!(r.get_f64(0), 7.0);
    }

    #[test]
    fn a_view_of_the_stores_shape_is_no_view() {
        let x = iota(vec![2, 3]);
        let y = x.reshaped(vec![6]).reshaped(vec![2, 3]);
        assert!(y.view_dims().is_none());
        assert!(y.same_view(&x));
        assert!(!x.reshaped(vec![3, 2]).same_view(&x));
        assert!(x.reshaped(vec![3, 2]).same_store(&x));
    }

    #[test]
    fn a_value_is_no_larger_for_views() {
        assert!(
            std::mem::size_of::<Value>() <= 24,
            "{}",
            std::mem::size_of::<Value>()
        );
    }

    #[test]
    fn reads_of_a_view_and_its_store_may_overlap() {
        let x = iota(vec![4, 1]);
        let y = x.reshaped(vec![4]);
        let (a, b) = (x.borrow(), y.borrow());
        assert_eq!((a.dims.clone(), b.dims.clone()), (vec![4, 1], vec![4]));
    }
}
