// ---- kernel reduce (rank 1) ----
extern "C" __global__ void __launch_bounds__(1024) bzk_reduce(
    f32* a0_x_p,
    bz_ext a0_x_d,
    f32* a1_y_p,
    bz_ext a1_y_d,
    bz_space bz_sp,
    bz_err* bz_erec,
    f32* bz_out0)
{
  bz_ectx bz_ec = {bz_erec, 0ull};
  bz_ectx* const bz_e = &bz_ec;
  (void)bz_e;
  bz_arr<f32> a0_x = {(f32*)a0_x_p, {a0_x_d.d[0], a0_x_d.d[1], a0_x_d.d[2], a0_x_d.d[3]}};
  bz_arr<f32> a1_y = {(f32*)a1_y_p, {a1_y_d.d[0], a1_y_d.d[1], a1_y_d.d[2], a1_y_d.d[3]}};
  __shared__ bz_sbar bz_sb;
  bz_sbar_init(&bz_sb);
  f32 bz_acc0 = bz_identity<0, f32>();
  const i32 bz_pos = (i32)blockIdx.x * (i32)blockDim.x + (i32)threadIdx.x;
  const i32 bz_blkpos = (i32)threadIdx.x;
  const i32 bz_blkdim = (i32)blockDim.x;
  const i32 bz_blkidx = (i32)blockIdx.x;
  bz_ec.key = (0ull) * (u64)bz_sp.dims[0] + (u64)((i32)blockIdx.x * (i32)blockDim.x + (i32)threadIdx.x);
  i32 v0_bit = {};
  i32 v1_i = {};
  bool bz_stop = false;
  (void)bz_stop;
  bz_arr<f32> a2_vals = {};
  u32 a2_vals_cap = 0;
  extern __shared__ __align__(16) u8 bz_smem[];
  u32 bz_smem_top = 0;
#line 3 "test.q"
  {
    const i32 bz_d[4] = {max(bz_blkdim, 0), 1, 1, 1};
    bz_shared_alloc(a2_vals, a2_vals_cap, bz_smem_top, bz_smem, bz_d, bz_e, 3);
    if (!a2_vals.data && (u64)bz_d[0] * (u64)bz_d[1] * (u64)bz_d[2] * (u64)bz_d[3] != 0ull) { bz_stop = true; goto bz_done; }
  }
#line 4 "test.q"
  bz_putz(a2_vals.data, a0_x.data[bz_idx<5>(bz_e, 4, 0, 0, bz_pos, a0_x.dims[0])], bz_blkpos, a2_vals.dims[0]);
  bz_sbar_sync(&bz_sb, 0);
  v0_bit = 1;
#line 6 "test.q"
  while ((v0_bit < bz_blkdim)) {
    if ((bz_rem(bz_blkpos, (v0_bit * 2)) == 0)) {
      { const i32 o = bz_idx<0>(bz_e, 8, 0, 0, bz_blkpos, a2_vals.dims[0]); if (o >= 0) bz_atomic<0, f32>(a2_vals.data + o, bz_getz(a2_vals.data, (bz_blkpos + v0_bit), a2_vals.dims[0])); }
#line 10 "test.q"
      bz_sbar_sync(&bz_sb, 0);
    }
#line 11 "test.q"
    v0_bit = (v0_bit * 2);
  }
  if ((bz_blkpos == 0)) {
    bz_putz(a1_y.data, bz_getz(a2_vals.data, 0, a2_vals.dims[0]), bz_blkidx, a1_y.dims[0]);
  } else {
    goto bz_done;
  }
  {
    const i32 bz_lo1 = 0;
    const i32 bz_st1 = 1;
    const i32 bz_hi1 = (a1_y.dims[0] - 1);
    v1_i = bz_lo1;
    #pragma unroll 8
    for (auto bz_n1 = bz_trips(bz_lo1, bz_st1, bz_hi1); bz_n1 != 0; --bz_n1, v1_i = bz_step(v1_i, bz_st1)) {
#line 19 "test.q"
      if (!(v1_i >= 0)) { bz_fail(bz_e, 1, 19, 0, 0); bz_stop = true; goto bz_done; }
      break;
    }
  }
#line 21 "test.q"
  bz_acc0 = bz_combine<0, f32>(bz_acc0, 1.0f);
bz_done:;
  bz_sbar_exit(&bz_sb);
  {
    __shared__ f32 bz_red0[32];
    f32 r = bz_block_reduce<0, true>(bz_acc0, bz_red0);
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) bz_atomic<0>(bz_out0, r);
  }
}
