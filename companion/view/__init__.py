"""What the sinks see: one frozen :class:`~companion.view.table_view.TableView` of the table per input, and the
:class:`~companion.view.sink.Sink` contract they implement. Depends only on ``companion.rules`` and the
standard library."""
