import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from 'zod';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from './app/theme';
import { App } from './shell/App';
import { DeskProvider } from './app/DeskContext';
import { TeamProvider } from './app/TeamContext';

// The CSP forbids eval, so zod must not try to compile validators with new Function.
config({ jitless: true });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <DeskProvider>
          <TeamProvider>
            <App />
          </TeamProvider>
        </DeskProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}
