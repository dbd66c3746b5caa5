# about: CONTROL: with the sandbox off, socket(AF_NETLINK, NETLINK_ROUTE) succeeds
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import socket
socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
return 'NETLINK_ROUTE: created ' + '{{TOKEN}}'.upper()
