// tcpa_pkg: constants of the TCPA RTL derived from the generated packages
// (tcpa_params_pkg from the architecture INI, tcpa_isa_pkg from isa.h,
// tcpa_stream_pkg from stream.h) and the field tags the loader puts on the
// configuration bus. The stream's own constants (packet kinds, loader error
// codes, magic, version, AG modes) are in tcpa_stream_pkg, generated
// (docs/rtl.md "Generated packages"). Nothing here is an architecture value
// of its own.
package tcpa_pkg;
  localparam int unsigned ROWS       = tcpa_params_pkg::ARRAY_ROWS;
  localparam int unsigned COLS       = tcpa_params_pkg::ARRAY_COLS;
  localparam int unsigned NPE        = ROWS * COLS;
  localparam int unsigned NALU       = tcpa_params_pkg::PE_ALU;
  localparam int unsigned NMUL       = tcpa_params_pkg::PE_MUL;
  localparam int unsigned NDIV       = tcpa_params_pkg::PE_DIV;
  localparam int unsigned NFU        = NALU + NMUL + NDIV;
  localparam int unsigned NRD        = tcpa_params_pkg::PE_RD;
  localparam int unsigned NFD        = tcpa_params_pkg::PE_FD;
  localparam int unsigned FD_DEPTH   = tcpa_params_pkg::PE_FD_DEPTH;
  localparam int unsigned NID        = tcpa_params_pkg::PE_ID;
  localparam int unsigned NOD        = tcpa_params_pkg::PE_OD;
  localparam int unsigned FIFO_DEPTH = tcpa_params_pkg::PE_FIFO_DEPTH;
  localparam int unsigned IMEM       = tcpa_params_pkg::PE_IMEM;
  localparam int unsigned LAT_ALU    = tcpa_params_pkg::LATENCY_ALU;
  localparam int unsigned LAT_MUL    = tcpa_params_pkg::LATENCY_MUL;
  localparam int unsigned LAT_DIV    = tcpa_params_pkg::LATENCY_DIV;
  localparam int unsigned NPORT      = tcpa_params_pkg::INTERCONNECT_PORTS;
  localparam int unsigned NSIG       = tcpa_params_pkg::GC_SIGNALS;
  localparam int unsigned NDIM       = tcpa_params_pkg::GC_DIMS;
  localparam int unsigned BANKS      = tcpa_params_pkg::IOBUF_BANKS;
  localparam int unsigned BANK_DEPTH = tcpa_params_pkg::IOBUF_DEPTH;

  // slots of each register class: at least one, so that a class with no
  // register (pe.rd = 0 ...) still declares legal vectors; slots past the
  // count are never written and read as zero (docs/rtl.md)
  localparam int unsigned NRD_S   = (NRD > 0) ? NRD : 1;
  localparam int unsigned NFD_S   = (NFD > 0) ? NFD : 1;
  localparam int unsigned NID_S   = (NID > 0) ? NID : 1;
  localparam int unsigned NOD_S   = (NOD > 0) ? NOD : 1;

  // derived sizes
  localparam int unsigned NSIDE   = 4;                 // n e s w
  localparam int unsigned NWP     = NSIDE * NPORT;     // wrapper ports each way
  localparam int unsigned NBANK   = (BANKS < NPORT) ? BANKS : NPORT;
  localparam int unsigned NTERM   = 2 * NSIG;          // GC terms
  localparam int unsigned NCONS   = 2 * NDIM;          // constraints per term / AG
  localparam int unsigned NGC     = 4;                 // global controllers
  localparam int unsigned NSRC    = NOD + NWP;         // wrapper sources
  localparam int unsigned NSINK   = NID + NWP;         // wrapper sinks
  localparam int unsigned SEL_W   = $clog2(NSRC + 1);
  // WRAPPER payload: the selects of WSELS sinks per word, one byte each
  localparam int          WSELS   = tcpa_stream_pkg::STREAM_WRAPPER_SELS;
  localparam int unsigned NWRAPW  = (NSINK + WSELS - 1) / WSELS;  // words
  localparam int unsigned PC_W    = tcpa_isa_pkg::ISA_PC_BITS;
  localparam int unsigned BADDR_W = (BANK_DEPTH > 1) ? $clog2(BANK_DEPTH) : 1;
  localparam int unsigned FDP_W   = (FD_DEPTH > 1) ? $clog2(FD_DEPTH) : 1;
  localparam int unsigned FIFO_W  = $clog2(FIFO_DEPTH + 1);

  // field tags of a payload word on the configuration bus
  localparam logic [4:0] F_DATA    = 5'd0;   // PROGRAM, REGCFG, WRAPPER, IODATA
  localparam logic [4:0] F_II      = 5'd1;
  localparam logic [4:0] F_NDIMS   = 5'd2;
  localparam logic [4:0] F_BOUND   = 5'd3;
  localparam logic [4:0] F_EPILOG  = 5'd4;
  localparam logic [4:0] F_DELAY0  = 5'd5;
  localparam logic [4:0] F_DELAYR  = 5'd6;
  localparam logic [4:0] F_DELAYC  = 5'd7;
  localparam logic [4:0] F_NTERMS  = 5'd8;
  localparam logic [4:0] F_TSIG    = 5'd9;
  localparam logic [4:0] F_TNCONS  = 5'd10;
  localparam logic [4:0] F_CKIND   = 5'd11;
  localparam logic [4:0] F_CCOEF   = 5'd12;
  localparam logic [4:0] F_CKONST  = 5'd13;
  localparam logic [4:0] F_MODE    = 5'd14;
  localparam logic [4:0] F_PHASE   = 5'd15;
  localparam logic [4:0] F_BASE    = 5'd16;
  localparam logic [4:0] F_ROWCOEF = 5'd17;
  localparam logic [4:0] F_COLCOEF = 5'd18;
  localparam logic [4:0] F_STRIDE  = 5'd19;
  localparam logic [4:0] F_NCONS   = 5'd20;
  localparam logic [4:0] F_END     = 5'd21;  // no more words expected

  // The configuration bus (docs/rtl.md "Configuration bus"): one registered
  // word of the loader per cycle, seen by every PE, GC and AG. A packet
  // header (hdr) carries the packet's NWORDS in data; a payload word (we)
  // its field tag (F_*) with the term, constraint and dimension of a GC or
  // AG word, its index in the packet (addr) and the word itself (data).
  // The packet's type, index, side and rectangle hold for its whole length.
  typedef struct packed {
    logic        we;     // a payload word
    logic        hdr;    // a packet header (data = NWORDS)
    tcpa_stream_pkg::pkt_kind_e ptype;
    logic [7:0]  index;
    logic [1:0]  side;
    logic [15:0] row0;
    logic [15:0] col0;
    logic [15:0] rows;
    logic [15:0] cols;
    logic [4:0]  field;  // F_*
    logic [7:0]  t;      // term
    logic [7:0]  c;      // constraint
    logic [7:0]  d;      // dimension
    logic [31:0] addr;   // payload word index in the packet
    logic [31:0] data;
  } cfg_bus_t;
endpackage
