// `pgw sandbox serve` listens here by default; embedded profiles print page addresses on it, and
// `pgw sandbox wait` and `pgw sandbox env` name it on the embedded profile. A module of its own so
// that those verbs know the port without loading the sandbox (open.ts loads its whole store).
export const DEFAULT_SANDBOX_PORT = 4010;
