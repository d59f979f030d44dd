import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import type { GivingOpportunity } from '../../../../shared/contract/searchChannels';
import { desk } from '../../app/deskClient';
import { SnippetText } from './SnippetText';

/** Image data: URLs already fetched, so scrolling back does not ask main again. */
const imageCache = new Map<string, string | null>();

function ResultImage({ path, title }: { path: string | null | undefined; title: string }) {
  const [loaded, setLoaded] = useState<{ path: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!path || imageCache.has(path)) return;
    let live = true;
    void desk['search.image']({ path }).then((r) => {
      const url = r.ok ? r.value.dataUrl : null;
      imageCache.set(path, url);
      if (live) setLoaded({ path, url });
    });
    return () => {
      live = false;
    };
  }, [path]);
  const url = path ? (imageCache.get(path) ?? (loaded?.path === path ? loaded.url : null)) : null;
  return (
    <Box
      sx={{
        width: 120,
        height: 90,
        flexShrink: 0,
        borderRadius: 1,
        bgcolor: 'action.hover',
        overflow: 'hidden',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      {url ? (
        <img
          src={url}
          alt={`Image for ${title}`}
          style={{ width: '100%', height: '100%', objectFit: 'cover' }}
        />
      ) : null}
    </Box>
  );
}

interface Props {
  result: GivingOpportunity;
  onOpen(result: GivingOpportunity): void;
  onUseRecipient(causeName: string, projectName?: string): void;
}

export function ResultCard({ result, onOpen, onUseRecipient }: Props) {
  const headingId = `result-${result.id}`;
  const snippets = result.snippets;
  const lines = [...(snippets?.title ?? []), ...(snippets?.body ?? [])];
  const tagSnippets = snippets?.tag ? ([] as string[]).concat(snippets.tag) : [];
  const creator = result.creator_name || result.creator_id || 'unknown';
  return (
    <Card component="article" aria-labelledby={headingId} variant="outlined" data-testid="search-result">
      <CardContent>
        <Stack direction="row" spacing={2}>
          <ResultImage path={result.image_url} title={result.title} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="h6" component="h2" id={headingId}>
              {result.title}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              By {creator}
              {result.creator_type ? ` (${result.creator_type})` : ''} · opportunity {result.id}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ my: 1, flexWrap: 'wrap' }}>
              {result.company_match && (
                <Chip size="small" variant="outlined" label="Company match" sx={{ color: 'text.primary' }} />
              )}
              {result.peer_match && (
                <Chip size="small" variant="outlined" label="Peer match" sx={{ color: 'text.primary' }} />
              )}
            </Stack>
            <Typography variant="body2">{result.description}</Typography>
            {lines.length + tagSnippets.length > 0 && (
              <Box sx={{ mt: 1 }} data-testid="snippets">
                <Typography variant="caption" color="textSecondary">
                  Matches
                </Typography>
                {[...lines, ...tagSnippets].map((s, i) => (
                  <Typography key={i} variant="body2" sx={{ color: 'text.secondary' }}>
                    … <SnippetText snippet={s} /> …
                  </Typography>
                ))}
              </Box>
            )}
            {(result.causes?.length ?? 0) > 0 && (
              <Box sx={{ mt: 1 }}>
                <Typography variant="subtitle2" component="h3">
                  Causes
                </Typography>
                <Stack component="ul" spacing={0.5} sx={{ pl: 0, m: 0, listStyle: 'none' }}>
                  {result.causes!.map((c, i) => (
                    <Stack component="li" key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography variant="body2">{c.name}</Typography>
                      <Button
                        size="small"
                        onClick={() => onUseRecipient(c.name)}
                        aria-label={`Use as recipient: ${c.name}`}
                      >
                        Use as recipient
                      </Button>
                    </Stack>
                  ))}
                </Stack>
              </Box>
            )}
            {(result.projects?.length ?? 0) > 0 && (
              <Box sx={{ mt: 1 }}>
                <Typography variant="subtitle2" component="h3">
                  Projects
                </Typography>
                <Stack component="ul" spacing={0.5} sx={{ pl: 0, m: 0, listStyle: 'none' }}>
                  {result.projects!.map((p, i) => (
                    <Stack component="li" key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography variant="body2">
                        {p.name}
                        {p.cause?.name ? ` — ${p.cause.name}` : ''}
                      </Typography>
                      {p.cause?.name && (
                        <Button
                          size="small"
                          onClick={() => onUseRecipient(p.cause!.name, p.name)}
                          aria-label={`Use as recipient: ${p.name}`}
                        >
                          Use as recipient
                        </Button>
                      )}
                    </Stack>
                  ))}
                </Stack>
              </Box>
            )}
          </Box>
        </Stack>
      </CardContent>
      <CardActions>
        <Button
          variant="contained"
          endIcon={<OpenInNew />}
          onClick={() => onOpen(result)}
          aria-label={`Open donation page for ${result.title}`}
        >
          Open donation page
        </Button>
      </CardActions>
    </Card>
  );
}
