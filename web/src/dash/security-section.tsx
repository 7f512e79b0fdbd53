import { useState } from 'preact/hooks';
import { api, type MeView } from './api.js';
import { PasskeysPanel } from './passkeys-panel.js';
import { ErrorNote, Section, useAction } from './ui.js';

type Mfa = MeView['mfa'];
interface Setup {
  secret: string;
  qrSvg: string;
}

/**
 * The server's QR code, drawn again as elements: Trusted Types (docs/SECURITY.md) refuse every string-to-HTML sink,
 * so the SVG text is never parsed as markup. Only its viewBox and its paths' fill, stroke and d are read.
 */
function QrCode({ svg }: { svg: string }) {
  const viewBox = /viewBox="([\d .]+)"/.exec(svg)?.[1] ?? '0 0 0 0';
  const paths = [...svg.matchAll(/<path ([^>]*?)\/?>/g)].map(([, attrs]) => {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs ?? '')?.[1];
    return { fill: attr('fill'), stroke: attr('stroke'), d: attr('d') ?? '' };
  });
  return (
    <svg class="qr-code" viewBox={viewBox} shape-rendering="crispEdges" role="img"
      aria-label="QR code for your authenticator app">
      {paths.map((p, i) => (
        <path key={i} fill={p.fill} stroke={p.stroke} d={p.d} />
      ))}
    </svg>
  );
}

/** The codes once, with a way to keep them: they are never shown again. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div class="stack" aria-label="Recovery codes">
      <p>
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator app. They
        are shown only now.
      </p>
      <pre class="recovery-codes">{text}</pre>
      <div class="row">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
        <a class="button" href={href} download="coffer-recovery-codes.txt">
          Download
        </a>
        <button type="button" class="primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

/** Account → Security: passkeys, and two-factor sign-in with an authenticator app (TOTP) and its recovery codes. */
export function SecuritySection({ initial }: { initial: Mfa }) {
  const [mfa, setMfa] = useState<Mfa>(initial);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, error, run] = useAction();

  const refresh = async () => setMfa((await api.me()).mfa);
  const start = () =>
    run(async () => {
      const answer = await api.startTotp();
      setSetup({ secret: answer.secret, qrSvg: answer.qrSvg });
      setCode('');
    });
  const confirm = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const answer = await api.confirmTotp(code);
      setSetup(null);
      setCode('');
      setCodes(answer.recoveryCodes);
      await refresh();
    });
  };
  const renew = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const answer = await api.newRecoveryCodes(code);
      setCode('');
      setCodes(answer.recoveryCodes);
      await refresh();
    });
  };
  const turnOff = () =>
    run(async () => {
      await api.turnOffTotp(password, code);
      setPassword('');
      setCode('');
      await refresh();
    });

  const codeInput = (label: string) => (
    <label>
      {label}
      <input name="code" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
    </label>
  );

  return (
    <Section title="Security">
      <PasskeysPanel onChanged={refresh} />
      <h3>Authenticator app</h3>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : mfa.totp ? (
        <>
          <p role="status">
            On: signing in asks for a code from your authenticator app. Recovery codes left: {mfa.recoveryCodesLeft}.
          </p>
          <form class="stack" onSubmit={renew}>
            {codeInput('Code from your app (or a recovery code)')}
            <label>
              Password (only to turn two-factor sign-in off)
              <input type="password" autocomplete="current-password" value={password}
                onInput={(e) => setPassword(e.currentTarget.value)} />
            </label>
            <div class="row">
              <button type="submit" disabled={busy}>
                Make new recovery codes
              </button>
              <button type="button" class="danger" disabled={busy || password === ''} onClick={() => void turnOff()}>
                Turn off two-factor sign-in
              </button>
            </div>
          </form>
        </>
      ) : setup ? (
        <form class="stack" onSubmit={confirm}>
          <p>Scan this code with your authenticator app, or type the key by hand. Then enter the code it shows.</p>
          <QrCode svg={setup.qrSvg} />
          <p>
            Key: <code class="totp-secret">{setup.secret}</code>
          </p>
          {codeInput('Code from your app')}
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              Turn on
            </button>
            <button type="button" class="link-button" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>
            {mfa.passkeys > 0
              ? 'Not set up. With it, a code from an authenticator app on your phone also answers the second step of signing in, in place of a passkey.'
              : 'Off. With it on, signing in also asks for a code from an authenticator app on your phone.'}
          </p>
          <div class="row">
            <button type="button" class="primary" disabled={busy} onClick={() => void start()}>
              Set up two-factor sign-in
            </button>
          </div>
        </>
      )}
      <ErrorNote error={error} situation="mfa-change" />
    </Section>
  );
}
