// ---- kernel acc (rank 2) ----
extern "C" __global__ void __launch_bounds__(1024) bzk_acc(
    f32* a0_w_p,
    bz_ext a0_w_d,
    f32 v1_a,
    bz_space bz_sp,
    bz_err* bz_erec,
    f32* bz_out0,
    bz_pool bz_pl)
{
  bz_ectx bz_ec = {bz_erec, 0ull};
  bz_ectx* const bz_e = &bz_ec;
  (void)bz_e;
  bz_arr<f32> a0_w = {(f32*)a0_w_p, {a0_w_d.d[0], a0_w_d.d[1], a0_w_d.d[2], a0_w_d.d[3]}};
  f32 bz_acc0 = bz_identity<0, f32>();
  const bz_v<i32, 2> bz_pos = {{(i32)blockIdx.y * (i32)blockDim.y + (i32)threadIdx.y, (i32)blockIdx.x * (i32)blockDim.x + (i32)threadIdx.x}};
  bz_ec.key = ((0ull) * (u64)bz_sp.dims[0] + (u64)((i32)blockIdx.y * (i32)blockDim.y + (i32)threadIdx.y)) * (u64)bz_sp.dims[1] + (u64)((i32)blockIdx.x * (i32)blockDim.x + (i32)threadIdx.x);
  bz_v<f32, 3> v0_v = {};
  u8 v2_b = {};
  bz_arr<u8> a1_t = {};
  u32 a1_t_cap = 0;
#line 2 "test.q"
  v0_v = bz_map2(bz_v<f32, 3>{{bz_map1(bz_pos, [](auto x) { return bz_cast<f32>(x); })[0], 0.5f, -1.0f}}, bz_splat<3, f32>(2.0f), [](auto x, auto y) { return (x * y); });
  v0_v[2] = 1e-7f;
  { const i32 bz_d[4] = {max(4, 0), 1, 1, 1}; bz_local_alloc(a1_t, a1_t_cap, bz_pl, bz_d, 1, bz_e, 4); }
  v2_b = ((u8)(bz_getz(a1_t.data, 0, a1_t.dims[0]) & ((u8)255)));
  bz_acc0 = bz_combine<0, f32>(bz_acc0, ((bz_pos[1] > 3) ? bz_fold(v0_v, [](auto x, auto y) { return (x + y); }) : c32{v1_a, 1.0f}.re));
  {
    __shared__ f32 bz_red0[32];
    f32 r = bz_block_reduce<0>(bz_acc0, bz_red0);
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) bz_atomic<0>(bz_out0, r);
  }
}
