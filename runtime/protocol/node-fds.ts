// Control descriptors of the Node child: fd 3 carries child→host frames, fd 4 host→child frames.
export const NODE_CHILD_WRITE_FD = 3;
export const NODE_CHILD_READ_FD = 4;
