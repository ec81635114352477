// ---- kernel gamma (rank 3) ----
extern "C" __global__ void __launch_bounds__(1024) bzk_gamma(
    f32* a0_y_p,
    bz_ext a0_y_d,
    f32 v0_gamma,
    bz_space bz_sp,
    bz_err* bz_erec)
{
  bz_ectx bz_ec = {bz_erec, 0ull};
  bz_ectx* const bz_e = &bz_ec;
  (void)bz_e;
  bz_arr<f32> a0_y = {(f32*)a0_y_p, {a0_y_d.d[0], a0_y_d.d[1], a0_y_d.d[2], a0_y_d.d[3]}};
  const bz_v<i32, 3> bz_pos = {{(i32)blockIdx.z * (i32)blockDim.z + (i32)threadIdx.z, (i32)blockIdx.y * (i32)blockDim.y + (i32)threadIdx.y, (i32)blockIdx.x * (i32)blockDim.x + (i32)threadIdx.x}};
#line 12 "test.q"
  bz_putz(a0_y.data, (255.0f * bz_pow((bz_get(a0_y.data, bz_idx<2>(bz_e, 12, 0, 0, bz_pos[0], a0_y.dims[0], bz_pos[1], a0_y.dims[1], bz_pos[2], a0_y.dims[2])) / 255.0f), v0_gamma)), bz_pos[0], a0_y.dims[0], bz_pos[1], a0_y.dims[1], bz_pos[2], a0_y.dims[2]);
}
