"""The platform's RTL, shipped with the package as data (``pip install`` of this repository): the readers, their
shared parts and the property modules (``props/``: the AXI4 read-master property set a user binds to their own
reader by port prefix). File lists name it as ``$DLA_RTL`` (:mod:`tb.thirdparty`); no Python lives here."""
