module {
  func.func @sdsc_bundle(@ARGS@) {
@BODY@
    return
  }
}
