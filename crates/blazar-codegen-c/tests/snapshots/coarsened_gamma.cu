// ---- kernel gamma (rank 3) ----
extern "C" __global__ void __launch_bounds__(256) bzk_gamma(
    f32* __restrict__ a0_y_p,
    bz_ext a0_y_d,
    f32 v0_gamma,
    bz_space bz_sp,
    bz_err* bz_erec)
{
  __builtin_assume(threadIdx.x < 256u);
  __builtin_assume(threadIdx.y < 1u);
  __builtin_assume(threadIdx.z < 1u);
  bz_ectx bz_ec = {bz_erec, 0ull};
  bz_ectx* const bz_e = &bz_ec;
  (void)bz_e;
  bz_arr<f32> a0_y = {(f32*)a0_y_p, {a0_y_d.d[0], a0_y_d.d[1], a0_y_d.d[2], a0_y_d.d[3]}};
  __builtin_assume((u32)(((i32)blockIdx.z * 4 + 0) * 1 + (i32)threadIdx.z) < (u32)bz_sp.dims[0]);
  __builtin_assume((u32)(((i32)blockIdx.z * 4 + 1) * 1 + (i32)threadIdx.z) < (u32)bz_sp.dims[0]);
  __builtin_assume((u32)(((i32)blockIdx.z * 4 + 2) * 1 + (i32)threadIdx.z) < (u32)bz_sp.dims[0]);
  __builtin_assume((u32)(((i32)blockIdx.z * 4 + 3) * 1 + (i32)threadIdx.z) < (u32)bz_sp.dims[0]);
  __builtin_assume((u32)((i32)blockIdx.y * 1 + (i32)threadIdx.y) < (u32)bz_sp.dims[1]);
  __builtin_assume((u32)((i32)blockIdx.x * 256 + (i32)threadIdx.x) < (u32)bz_sp.dims[2]);
  #pragma unroll
  for (i32 bz_r = 0; bz_r < 4; ++bz_r) {
  const bz_v<i32, 3> bz_pos = {{((i32)blockIdx.z * 4 + bz_r) * 1 + (i32)threadIdx.z, (i32)blockIdx.y * 1 + (i32)threadIdx.y, (i32)blockIdx.x * 256 + (i32)threadIdx.x}};
#line 12 "test.q"
  bz_putz(a0_y.data, (255.0f * bz_pow((bz_get(a0_y.data, bz_idx<2>(bz_e, 12, 0, 0, bz_pos[0], a0_y.dims[0], bz_pos[1], a0_y.dims[1], bz_pos[2], a0_y.dims[2])) / 255.0f), v0_gamma)), bz_pos[0], a0_y.dims[0], bz_pos[1], a0_y.dims[1], bz_pos[2], a0_y.dims[2]);
  bz_next:;
  }
}
