import { parseSnippet } from './snippet';

/** A service snippet with only `<em>` shown as emphasis; everything else is plain text. */
export function SnippetText({ snippet }: { snippet: string }) {
  return (
    <>
      {parseSnippet(snippet).map((part, i) =>
        part.em ? (
          <em key={i} style={{ fontStyle: 'normal', fontWeight: 700, background: '#fff3c4' }}>
            {part.text}
          </em>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
