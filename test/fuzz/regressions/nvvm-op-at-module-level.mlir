

// expected-error @+2 {{'func.func' op is a kernel (tilegpu.kernel) and may not return values}}
// expected-error @+1 {{failed to legalize operation 'func.func'}}
func.func @returns(%x: i32) -> i32 attributes {tilegpu.kernel} {
  return %x : i32
}
 nvvm.wgmma.commit.group.sync.aligned 