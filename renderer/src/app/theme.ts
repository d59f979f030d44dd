import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#0b6e69' },
    secondary: { main: '#3d4f9f' },
    background: { default: '#f5f7f7' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.6rem', fontWeight: 600 },
    h2: { fontSize: '1.25rem', fontWeight: 600 },
    h3: { fontSize: '1.05rem', fontWeight: 600 },
  },
  components: {
    MuiButtonBase: { defaultProps: { disableRipple: false } },
    MuiButton: { defaultProps: { variant: 'contained', disableElevation: true } },
    // A focus ring people can see on every control, not only the browser default.
    MuiCssBaseline: {
      styleOverrides: {
        '*:focus-visible': { outline: '3px solid #f2a900', outlineOffset: '2px' },
        '.skip-link': {
          position: 'absolute',
          left: '-9999px',
          top: 0,
          zIndex: 2000,
          padding: '8px 12px',
          background: '#fff',
        },
        '.skip-link:focus': { left: '8px', top: '8px' },
        // Printing (or saving as PDF) the month-end report prints the report alone.
        '@media print': {
          'header, nav, .skip-link': { display: 'none !important' },
          'main > div > *:not(.month-report)': { display: 'none !important' },
          main: { marginLeft: '0 !important', paddingTop: '0 !important' },
        },
        '.visually-hidden': {
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
        },
      },
    },
  },
});
