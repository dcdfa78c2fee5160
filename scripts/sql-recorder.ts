/**
 * The statements a portal sends, read off the wire (issue 28 item 4): a TCP proxy in front of
 * PostgreSQL that passes every byte both ways and, while `recording`, keeps what each frontend message
 * of the extended protocol says: Parse's text, then Bind's parameters (node-postgres sends them as
 * text), and simple queries' text. The bench points a portal at it for one request, then replays the
 * statements raw beside the same request to a portal on PostgreSQL directly (scripts/bench-recorded-sql.ts).
 * Plain connections only: node-postgres asks for no TLS on 127.0.0.1.
 */
import net from 'node:net';

export interface Statement {
  text: string;
  values: (string | null)[];
}

export interface Recorder {
  port: number;
  /** The statements seen since the last call, in the order they were sent (all connections). */
  take(): Statement[];
  recording: boolean;
  close(): Promise<void>;
}

/** Reads the frontend's messages from a connection's byte stream (after its startup message). */
function frontendReader(onMessage: (type: string, body: Buffer) => void) {
  let buffered = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!started) {
        if (buffered.length < 4) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        buffered = buffered.subarray(length);
        started = true;
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered.length < 1 + length) return;
      onMessage(String.fromCharCode(buffered[0]), buffered.subarray(5, 1 + length));
      buffered = buffered.subarray(1 + length);
    }
  };
}

const cString = (body: Buffer, at: number): [string, number] => {
  const end = body.indexOf(0, at);
  return [body.toString('utf8', at, end), end + 1];
};

/** Bind's parameter values (text format; a binary one is kept as its hex, which node-postgres never sends). */
function bindValues(body: Buffer): { statement: string; values: (string | null)[] } {
  let at = cString(body, 0)[1];
  const [statement, next] = cString(body, at);
  at = next;
  const formats = body.readInt16BE(at);
  at += 2 + formats * 2;
  const count = body.readInt16BE(at);
  at += 2;
  const values: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) values.push(null);
    else {
      values.push(body.toString('utf8', at, at + length));
      at += length;
    }
  }
  return { statement, values };
}

export async function startRecorder(target: { host: string; port: number }): Promise<Recorder> {
  let seen: Statement[] = [];
  const sockets = new Set<net.Socket>();
  const recorder: Recorder = {
    port: 0,
    recording: false,
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    // Parse's text by statement name ('' for the unnamed one), until Bind uses it.
    const parsed = new Map<string, string>();
    const read = frontendReader((type, body) => {
      if (type === 'P') {
        const [name, at] = cString(body, 0);
        parsed.set(name, cString(body, at)[0]);
      } else if (type === 'B') {
        const { statement, values } = bindValues(body);
        if (recorder.recording) seen.push({ text: parsed.get(statement) ?? '', values });
      } else if (type === 'Q' && recorder.recording) {
        seen.push({ text: cString(body, 0)[0], values: [] });
      }
    });
    client.on('data', (chunk) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recorder.port = (server.address() as net.AddressInfo).port;
  return recorder;
}
