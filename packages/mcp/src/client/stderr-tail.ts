/** The last `limit` characters a server wrote to stderr: enough for the connection error, bounded whatever it writes. */
export class StderrTail {
  private text = '';

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
  }

  clear(): void {
    this.text = '';
  }

  toString(): string {
    return this.text;
  }
}
