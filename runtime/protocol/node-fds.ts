// Control descriptors of the Node child: fd 3 carries child→host frames, fd 4 host→child frames. When the run has a
// bindings host, the child's own connection to it comes after these and the feeds; the boot frame names it.
export const NODE_CHILD_WRITE_FD = 3;
export const NODE_CHILD_READ_FD = 4;
