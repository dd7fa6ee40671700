/**
 * Contract tests (issue "Production grade": tests pass on a loaded machine). Pact's mock server
 * answers a request and records that it matched through an event handled a moment later
 * (pact_mock_server); `executeTest` checks the record as soon as the test's callback returns. On a
 * loaded 2-core machine the check could run first and report "The following request was expected
 * but not received" for a request the client had just been answered (measured: 1–3 of 76 consumer
 * tests per run while a CI run and two busy threads shared the machine; none when idle).
 *
 * So every `executeTest` callback, once it has returned, waits until the mock server's record
 * shows no expected request missing — polling the same check pact runs (`mockServerMismatches`),
 * every 10 ms, for up to 5 s. A request that never came still fails (after those 5 s), with pact's
 * own message; a mismatched request fails at once (it is recorded, not missing).
 */
import { InteractionWithResponse } from '@pact-foundation/pact/src/v4/http/interactionWithResponse';

type ConsumerPactHandle = { mockServerMismatches(port: number): Array<{ type?: string }> };
type TestFn = (server: { port: number; url: string; id: string }) => Promise<unknown>;

const WAIT_MS = 5_000;
const POLL_MS = 10;

/** Resolves once the mock server on `port` has no expected request missing, or after {@link WAIT_MS}. */
async function untilRecorded(pact: ConsumerPactHandle, port: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (pact.mockServerMismatches(port).some((result) => result.type === 'missing-request') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const prototype = InteractionWithResponse.prototype as unknown as {
  executeTest(this: { pact: ConsumerPactHandle }, testFn: TestFn): Promise<unknown>;
};
const executeTest = prototype.executeTest;
prototype.executeTest = function (testFn) {
  const pact = this.pact;
  return executeTest.call(this, async (server) => {
    const value = await testFn(server);
    await untilRecorded(pact, server.port);
    return value;
  });
};
