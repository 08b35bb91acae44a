// Hand-written stand-in for a dataflow kernel: its schedule reports (solution/.autopilot/db)
void produce(int n, hls::stream<int> &c) { // tie these lines to the states of the hand-written
  for (int i = 0; i < n; i++)               // RTL (solution/syn/verilog), whose two processes run
    c.write(i * 3);                         // at once; docs/profile.md works the run out.
}
void consume(int n, hls::stream<int> &c, int *sum) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += c.read();
  *sum = s;
}
void df(int n, int *sum) {
#pragma HLS DATAFLOW
  hls::stream<int> c;
  produce(n, c);
  consume(n, c, sum);
}
